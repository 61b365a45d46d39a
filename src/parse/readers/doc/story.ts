/**
 * One story of a .doc (main text, a note, a header) from its raw characters to the intermediate
 * document's HTML (MS-DOC §2.4 "Document Parts", §2.8.25 fields). Word's marks drive the
 * structure: 0x0D ends a paragraph, 0x07 ends a table cell, a 0x07 whose paragraph is a
 * table-row end (sprmPFTtp) ends a row, 0x0B is a line break, 0x0C a page or section break;
 * fields run 0x13 code 0x14 result 0x15 and a `HYPERLINK "url"` field becomes a link around
 * its result. One pass over the characters; field nesting is capped.
 */
import { escapeHtml } from '../../document.ts';
import type { FormatChange } from './character.ts';
import type { ParagraphProps, StoryProperties } from './properties.ts';

export interface StoryContext {
  properties?: StoryProperties;
  /** CP of the story's first character in the whole text (for property look-ups). */
  cpStart: number;
  /** Labels of note references, by CP (`[1]`). */
  noteLabels?: Map<number, string>;
  /** Bold/italic changes (character.ts), in CP order. */
  formatChanges?: FormatChange[];
  /** Called for each picture placeholder written. */
  onPicture?: () => void;
}

interface Paragraph {
  html: string;
  mark: 'para' | 'cell';
  props: ParagraphProps | undefined;
}

interface Field {
  code: string;
  inResult: boolean;
  href?: string;
}

const MAX_FIELD_DEPTH = 32;
/** Alt text of a picture placeholder (the DOCX reader's fallback alt). */
export const PICTURE_ALT = 'Image';
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

interface InlineState {
  href: string | undefined;
  bold: boolean;
  italic: boolean;
}

/**
 * Inline HTML with links, bold and italic always well nested (a ⊃ strong ⊃ em): at the next
 * text, the open tags from the outermost one that differs from the wanted state inwards close,
 * and the wanted ones from there open; a link keeps one `<a>` across a change of bold.
 */
class InlineWriter {
  html = '';
  private open: InlineState = { href: undefined, bold: false, italic: false };
  readonly want: InlineState = { href: undefined, bold: false, italic: false };

  private sync(): void {
    const { open, want } = this;
    const from = open.href !== want.href ? 0 : open.bold !== want.bold ? 1 : open.italic !== want.italic ? 2 : 3;
    if (from === 3) return;
    this.closeTags(from);
    if (from <= 0 && want.href !== undefined) this.html += `<a href="${escapeHtml(want.href)}">`;
    if (from <= 1 && want.bold) this.html += '<strong>';
    if (from <= 2 && want.italic) this.html += '<em>';
    this.open = { ...want };
  }

  /** Closes the open tags at nesting level `from` (0 a, 1 strong, 2 em) and inside it. */
  private closeTags(from = 0): void {
    if (this.open.italic) this.html += '</em>';
    if (from <= 1 && this.open.bold) this.html += '</strong>';
    if (from <= 0 && this.open.href !== undefined) this.html += '</a>';
    this.open = { href: from <= 0 ? undefined : this.open.href, bold: from <= 1 ? false : this.open.bold, italic: false };
  }

  text(text: string): void {
    if (text === '') return;
    this.sync();
    this.html += escapeHtml(text);
  }

  markup(html: string): void {
    this.sync();
    this.html += html;
  }

  /** Closes the paragraph's tags and returns its HTML; the wanted state carries on. */
  finish(): string {
    this.closeTags();
    const html = this.html;
    this.html = '';
    return html;
  }
}

/** Splits the story into paragraphs with inline HTML (links, bold, italic, line breaks, note labels). */
function paragraphs(text: string, context: StoryContext): Paragraph[] {
  const result: Paragraph[] = [];
  const fields: Field[] = [];
  const out = new InlineWriter();
  const changes = context.formatChanges ?? [];
  let nextChange = 0;
  let pending = '';

  const flushText = (): void => {
    out.text(pending);
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
  const endParagraph = (mark: Paragraph['mark'], cp: number): void => {
    flushText();
    result.push({ html: out.finish(), mark, props: context.properties?.paragraphAt(context.cpStart + cp) });
  };

  for (let i = 0; i < text.length; i++) {
    if (nextChange < changes.length && (changes[nextChange] as FormatChange).cp <= context.cpStart + i) {
      flushText();
      while (nextChange < changes.length && (changes[nextChange] as FormatChange).cp <= context.cpStart + i) {
        const change = changes[nextChange++] as FormatChange;
        out.want.bold = change.bold;
        out.want.italic = change.italic;
      }
    }
    const code = text.charCodeAt(i);
    const collecting = fields.length > 0 ? codeField() : undefined;
    if (collecting && code !== 0x13 && code !== 0x14 && code !== 0x15) {
      collecting.code += code >= 0x20 ? text[i] : code === 0x0d || code === 0x07 || code === 0x09 ? ' ' : '';
      continue;
    }
    if (code >= 0x20 && code !== 0xa0) {
      pending += text[i];
      continue;
    }
    switch (code) {
      case 0x0d:
      case 0x0c:
        endParagraph('para', i);
        break;
      case 0x07:
        endParagraph('cell', i);
        break;
      case 0x0b:
        flushText();
        out.markup('<br>');
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
      case 0x01:
        // An inline picture or embedded object's anchor (MS-DOC §2.4.2.3): its image lives in the
        // Data stream, which folio does not decode; the alt-text placeholder marks where it was.
        flushText();
        out.markup(`<img alt="${PICTURE_ALT}">`);
        context.onPicture?.();
        break;
      case 0x02: {
        const label = context.noteLabels?.get(context.cpStart + i);
        if (label) {
          flushText();
          out.markup(`<sup>${escapeHtml(label)}</sup>`);
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
        // A HYPERLINK nested in another field's code is part of that code, not a link.
        const href = codeField() ? undefined : hyperlinkTarget(field.code);
        if (href !== undefined && out.want.href === undefined) {
          flushText();
          field.href = href;
          out.want.href = href;
        }
        break;
      }
      case 0x15: {
        const field = fields.pop();
        if (field?.href !== undefined) {
          flushText();
          out.want.href = undefined;
        }
        break;
      }
      default:
        // 0x00 deleted text, 0x05 comment anchor, 0x08 drawn object, 0x1F optional hyphen, …
        break;
    }
  }
  flushText();
  const last = out.finish();
  if (!isEmptyHtml(last)) result.push({ html: last, mark: 'para', props: undefined });
  return result;
}

function isEmptyHtml(html: string): boolean {
  return !html.includes('<img') && html.replace(/<[^>]+>/g, '').replace(/[\s\u00a0]/g, '') === '';
}

function tidyInline(html: string): string {
  return html.replace(/\t/g, ' ').trim();
}

/** A table from its rows of cells (each cell a list of paragraph HTML); the first row is the header. */
function tableHtml(rows: string[][][]): string {
  const widest = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const cells = rows.reduce((sum, row) => sum + row.length, 0);
  // Short rows are padded to the widest one, unless a freak row would make the padding dwarf the table.
  const width = widest * rows.length <= 4 * cells + 1000 ? widest : 0;
  const cell = (tag: string, paragraphs: string[] | undefined): string =>
    `<${tag}>${(paragraphs ?? []).filter((p) => !isEmptyHtml(p)).map(tidyInline).join('<br>')}</${tag}>`;
  const row = (cells: string[][], tag: string): string =>
    `<tr>${Array.from({ length: Math.max(width, cells.length) }, (_, i) => cell(tag, cells[i])).join('')}</tr>`;
  const [head, ...body] = rows;
  return `<table><thead>${row(head ?? [], 'th')}</thead><tbody>${body.map((r) => row(r, 'td')).join('')}</tbody></table>`;
}

interface ListItem {
  kind: 'ul' | 'ol';
  level: number;
  html: string;
}

/** Nested lists from consecutive list paragraphs: a deeper item opens a list inside the open item. */
function listHtml(items: ListItem[]): string {
  let html = '';
  const open: { kind: 'ul' | 'ol'; level: number }[] = [];
  for (const item of items) {
    let top = open[open.length - 1];
    while (top && (top.level > item.level || (top.level === item.level && top.kind !== item.kind))) {
      html += `</li></${top.kind}>`;
      open.pop();
      top = open[open.length - 1];
    }
    if (top && top.level === item.level) html += `</li><li>${item.html}`;
    else {
      html += `<${item.kind}><li>${item.html}`;
      open.push({ kind: item.kind, level: item.level });
    }
  }
  for (let i = open.length - 1; i >= 0; i--) html += `</li></${(open[i] as { kind: string }).kind}>`;
  return html;
}

/** The story as block HTML: paragraphs, headings, lists and tables. */
export function storyHtml(text: string, context: StoryContext): string {
  const blocks: string[] = [];
  let rows: string[][][] = [];
  let cells: string[][] = [];
  let cellParagraphs: string[] = [];

  let items: ListItem[] = [];
  const flushList = (): void => {
    if (items.length > 0) blocks.push(listHtml(items));
    items = [];
  };

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
      flushList();
      if (paragraph.props?.rowEnd === true) {
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
    const item = paragraph.props && level === undefined ? context.properties?.listItem(paragraph.props) : undefined;
    if (item) {
      items.push({ kind: item.kind, level: item.level, html: inline });
      continue;
    }
    flushList();
    blocks.push(level !== undefined ? `<h${level}>${inline}</h${level}>` : `<p>${inline}</p>`);
  }
  flushTable();
  flushList();
  return blocks.join('\n');
}
