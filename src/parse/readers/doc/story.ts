/**
 * One story of a .doc (main text, a note, a header) from its raw characters to the intermediate
 * document's HTML (MS-DOC §2.4 "Document Parts", §2.8.25 fields). Word's marks drive the
 * structure: 0x0D ends a paragraph, 0x07 ends a table cell, the row-end paragraph (which
 * word-extractor turns into 0x0A) ends a row, 0x0B is a line break, 0x0C a page or section
 * break; fields run 0x13 code 0x14 result 0x15 and a `HYPERLINK "url"` field becomes a link
 * around its result. One pass over the characters; field nesting is capped.
 */
import { escapeHtml } from '../../document.ts';
import type { DocProperties, ParagraphProps } from './properties.ts';

export interface StoryContext {
  properties?: DocProperties;
  /** CP of the story's first character in the whole text (for property look-ups). */
  cpStart: number;
  /** Labels of note references, by CP (`[1]`). */
  noteLabels?: Map<number, string>;
}

interface Paragraph {
  html: string;
  mark: 'para' | 'cell' | 'row';
  props: ParagraphProps | undefined;
}

interface Field {
  code: string;
  inResult: boolean;
  href?: string;
}

const MAX_FIELD_DEPTH = 32;
const HYPERLINK = /^\s*HYPERLINK\b(.*)$/is;

/** The target of a HYPERLINK field code: its quoted (or bare) URL, `\l "x"` as `#x`. */
export function hyperlinkTarget(code: string): string | undefined {
  const match = HYPERLINK.exec(code);
  if (!match) return undefined;
  const args = match[1] ?? '';
  let url: string | undefined;
  let anchor: string | undefined;
  const tokens = args.matchAll(/\\([a-z])|"([^"]*)"|(\S+)/gi);
  let pendingSwitch: string | undefined;
  for (const token of tokens) {
    if (token[1]) {
      pendingSwitch = token[1].toLowerCase();
      continue;
    }
    const value = token[2] ?? token[3] ?? '';
    if (pendingSwitch === 'l') anchor = value;
    else if (pendingSwitch === undefined && url === undefined) url = value;
    pendingSwitch = undefined;
  }
  const target = url ? url + (anchor ? `#${anchor}` : '') : anchor ? `#${anchor}` : undefined;
  return target?.trim() || undefined;
}

/** Splits the story into paragraphs with inline HTML (links, line breaks, note labels). */
function paragraphs(text: string, context: StoryContext): Paragraph[] {
  const result: Paragraph[] = [];
  const fields: Field[] = [];
  let html = '';
  let linkOpen: string | undefined;
  let pending = '';

  const flushText = (): void => {
    if (pending) html += escapeHtml(pending);
    pending = '';
  };
  /** The innermost field collecting code, if any: characters go there instead of the output. */
  const codeField = (): Field | undefined => {
    for (let i = fields.length - 1; i >= 0; i--) {
      const field = fields[i] as Field;
      if (!field.inResult) return field;
    }
    return undefined;
  };
  const emit = (chars: string): void => {
    const field = fields.length > 0 ? codeField() : undefined;
    if (field) field.code += chars;
    else pending += chars;
  };
  const endParagraph = (mark: Paragraph['mark'], cp: number): void => {
    flushText();
    if (linkOpen !== undefined) html += '</a>';
    result.push({ html, mark, props: context.properties?.paragraphAt(context.cpStart + cp) });
    html = linkOpen !== undefined ? `<a href="${escapeHtml(linkOpen)}">` : '';
  };

  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code !== 0xa0) {
      if (fields.length === 0) pending += text[i];
      else emit(text[i] as string);
      continue;
    }
    if (fields.length > 0 && codeField() && code !== 0x13 && code !== 0x14 && code !== 0x15) {
      emit(code === 0x0d || code === 0x07 ? ' ' : code === 0xa0 ? '\u00a0' : '');
      continue;
    }
    switch (code) {
      case 0x0d:
        endParagraph('para', i);
        break;
      case 0x07:
        endParagraph('cell', i);
        break;
      case 0x0a:
        endParagraph('row', i);
        break;
      case 0x0c:
        endParagraph('para', i);
        break;
      case 0x0b:
        flushText();
        html += '<br>';
        break;
      case 0x09:
        pending += '\t';
        break;
      case 0xa0:
        pending += '\u00a0';
        break;
      case 0x1e:
        pending += '-';
        break;
      case 0x02: {
        const label = context.noteLabels?.get(context.cpStart + i);
        if (label) {
          flushText();
          html += `<sup>${escapeHtml(label)}</sup>`;
        }
        break;
      }
      case 0x13:
        if (fields.length < MAX_FIELD_DEPTH) fields.push({ code: '', inResult: false });
        break;
      case 0x14: {
        const field = fields[fields.length - 1];
        if (!field || field.inResult) break;
        field.inResult = true;
        const href = codeField() ? undefined : hyperlinkTarget(field.code);
        if (href !== undefined && linkOpen === undefined) {
          flushText();
          field.href = href;
          linkOpen = href;
          html += `<a href="${escapeHtml(href)}">`;
        }
        break;
      }
      case 0x15: {
        const field = fields.pop();
        if (field?.href !== undefined && linkOpen !== undefined) {
          flushText();
          html += '</a>';
          linkOpen = undefined;
        }
        break;
      }
      default:
        // 0x00 deleted text, 0x01 picture anchor, 0x05 comment anchor, 0x08 drawn object, 0x1F optional hyphen, …
        break;
    }
  }
  flushText();
  if (html.replace(/<a [^>]*>|<\/a>/g, '').trim() !== '') endParagraph('para', text.length);
  return result;
}

function isEmptyHtml(html: string): boolean {
  return html.replace(/<a [^>]*>|<\/a>|<br>/g, '').replace(/[\s\u00a0]/g, '') === '';
}

function tidyInline(html: string): string {
  return html.replace(/<a [^>]*><\/a>/g, '').replace(/\t/g, ' ').trim();
}

/** A table from its rows of cells (each cell a list of paragraph HTML); the first row is the header. */
function tableHtml(rows: string[][][]): string {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const cell = (tag: string, paragraphs: string[] | undefined): string =>
    `<${tag}>${(paragraphs ?? []).filter((p) => !isEmptyHtml(p)).map(tidyInline).join('<br>')}</${tag}>`;
  const row = (cells: string[][], tag: string): string =>
    `<tr>${Array.from({ length: width }, (_, i) => cell(tag, cells[i])).join('')}</tr>`;
  const [head, ...body] = rows;
  return `<table><thead>${row(head ?? [], 'th')}</thead><tbody>${body.map((r) => row(r, 'td')).join('')}</tbody></table>`;
}

/** The story as block HTML: paragraphs, headings and tables. */
export function storyHtml(text: string, context: StoryContext): string {
  const blocks: string[] = [];
  let rows: string[][][] = [];
  let cells: string[][] = [];
  let cellParagraphs: string[] = [];

  const flushTable = (): void => {
    if (cellParagraphs.length > 0) cells.push(cellParagraphs);
    if (cells.length > 0) rows.push(cells);
    // A table with no text at all (a layout frame around pictures or form lines) says nothing.
    if (rows.some((row) => row.some((cell) => cell.some((p) => !isEmptyHtml(p))))) blocks.push(tableHtml(rows));
    rows = [];
    cells = [];
    cellParagraphs = [];
  };

  for (const paragraph of paragraphs(text, context)) {
    const inTable = paragraph.mark !== 'para' || paragraph.props?.inTable === true || paragraph.props?.rowEnd === true;
    if (inTable) {
      if (paragraph.mark === 'row' || paragraph.props?.rowEnd === true) {
        if (cellParagraphs.length > 0) cells.push(cellParagraphs);
        if (cells.length > 0) rows.push(cells);
        cells = [];
        cellParagraphs = [];
      } else {
        cellParagraphs.push(paragraph.html);
        if (paragraph.mark === 'cell') {
          cells.push(cellParagraphs);
          cellParagraphs = [];
        }
      }
      continue;
    }
    flushTable();
    if (isEmptyHtml(paragraph.html)) continue;
    const inline = tidyInline(paragraph.html);
    const level = paragraph.props ? context.properties?.headingLevel(paragraph.props) : undefined;
    blocks.push(level !== undefined ? `<h${level}>${inline}</h${level}>` : `<p>${inline}</p>`);
  }
  flushTable();
  return blocks.join('\n');
}
