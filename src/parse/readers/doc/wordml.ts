/**
 * Word 2003 XML ("WordprocessingML 2003", `<w:wordDocument>`, the Office 2003 XML Reference
 * Schemas) saved under a .doc name. Paragraphs (`w:p`, runs `w:r` with `w:t`, `w:tab`,
 * `w:br`), bold and italic from `w:rPr`, hidden runs (`w:vanish`) kept as the DOCX reader keeps them, headings from the
 * paragraph style (`w:pStyle` → a style named "heading N" or with an outline level), tables
 * (`w:tbl/w:tr/w:tc`, `w:gridSpan` → colspan, `w:vmerge` → rowspan; first row as header),
 * links (`w:hlink w:dest`), headers and footers (`w:hdr`/`w:ftr` in `w:sectPr`) as page
 * furniture, metadata from `o:DocumentProperties`. Tracked deletions (`w:delText`,
 * `aml:annotation w:type="Word.Deletion"`) and comments are left out.
 */
import { DOMParser } from 'linkedom';
import { documentFromHtml, emptyMetadata, escapeHtml, type DocumentMetadata, type ReadInput, type ReadResult } from '../../document.ts';
import { damaged } from './ole.ts';
import { PICTURE_ALT } from './story.ts';
import { COMMENTS_LEFT_OUT } from '../comments.ts';

const MAX_DEPTH = 256;

class TooDeep extends Error {}

function isOn(element: Element | undefined): boolean {
  if (!element) return false;
  const value = element.getAttribute('w:val');
  return value === null || !/^(off|0|false|none)$/i.test(value);
}

function child(element: Element, name: string): Element | undefined {
  for (const node of Array.from(element.children)) if (node.nodeName === name) return node;
  return undefined;
}

function headingLevels(root: Element): Map<string, number> {
  const levels = new Map<string, number>();
  const styles = root.getElementsByTagName('w:style');
  for (const style of Array.from(styles)) {
    if (style.getAttribute('w:type') !== 'paragraph') continue;
    const id = style.getAttribute('w:styleId');
    if (!id) continue;
    const name = child(style, 'w:name')?.getAttribute('w:val') ?? '';
    const byName = /^heading\s*([1-9])$/i.exec(name.trim()) ?? /^heading([1-9])$/i.exec(id);
    const pPr = child(style, 'w:pPr');
    const outline = pPr ? child(pPr, 'w:outlineLvl')?.getAttribute('w:val') : undefined;
    const level = byName ? Number(byName[1]) : outline !== undefined && outline !== null && /^[0-8]$/.test(outline) ? Number(outline) + 1 : undefined;
    if (level !== undefined) levels.set(id, Math.min(level, 6));
  }
  return levels;
}

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp' };

class Converter {
  constructor(
    private readonly headings: Map<string, number>,
    private readonly embedImages: boolean,
  ) {}

  /** A `w:pict`: its `w:binData` as a data URI when images are embedded, else the alt-text placeholder. */
  picture(pict: Element): string {
    const imagedata = pict.getElementsByTagName('v:imagedata')[0];
    const shape = pict.getElementsByTagName('v:shape')[0];
    const alt = (shape?.getAttribute('alt') || imagedata?.getAttribute('o:title') || PICTURE_ALT).trim() || PICTURE_ALT;
    const data = pict.getElementsByTagName('w:binData')[0];
    const type = IMAGE_TYPES[(data?.getAttribute('w:name') ?? '').split('.').pop()?.toLowerCase() ?? ''];
    if (this.embedImages && data && type) {
      const base64 = (data.textContent ?? '').replace(/\s+/g, '');
      if (/^[A-Za-z0-9+/]+=*$/.test(base64)) return `<img src="data:${type};base64,${base64}" alt="${escapeHtml(alt)}">`;
    }
    return `<img alt="${escapeHtml(alt)}">`;
  }

  /** Inline HTML of a paragraph's content. */
  inline(element: Element, depth: number): string {
    if (depth > MAX_DEPTH) throw new TooDeep();
    let html = '';
    for (const node of Array.from(element.children)) {
      switch (node.nodeName) {
        case 'w:pPr':
        case 'w:rPr':
        case 'w:delText':
        case 'w:instrText':
        case 'aml:annotation':
          if (node.nodeName === 'aml:annotation' && node.getAttribute('w:type') === 'Word.Insertion') html += this.inline(node, depth + 1);
          else if (node.nodeName === 'aml:annotation' && (node.getAttribute('w:type') ?? '').startsWith('Word.Formatting')) html += this.inline(node, depth + 1);
          break;
        case 'w:r':
          html += this.run(node);
          break;
        case 'w:hlink': {
          const dest = node.getAttribute('w:dest') ?? '';
          const bookmark = node.getAttribute('w:bookmark');
          const href = dest ? dest + (bookmark ? `#${bookmark}` : '') : bookmark ? `#${bookmark}` : '';
          const content = this.inline(node, depth + 1);
          html += href && content.trim() ? `<a href="${escapeHtml(href)}">${content}</a>` : content;
          break;
        }
        default:
          html += this.inline(node, depth + 1);
      }
    }
    return html;
  }

  run(run: Element): string {
    const rPr = child(run, 'w:rPr');
    let text = '';
    for (const node of Array.from(run.children)) {
      switch (node.nodeName) {
        case 'w:t':
          text += escapeHtml(node.textContent ?? '');
          break;
        case 'w:tab':
          text += ' ';
          break;
        case 'w:br':
        case 'w:cr':
          if (node.getAttribute('w:type') !== 'page') text += '<br>';
          break;
        case 'w:noBreakHyphen':
          text += '-';
          break;
        case 'w:pict':
          text += this.picture(node);
          break;
        default:
          break;
      }
    }
    if (text.replace(/<br>|<img [^>]*>/g, '').trim() === '' || !rPr) return text;
    if (isOn(child(rPr, 'w:i'))) text = `<em>${text}</em>`;
    if (isOn(child(rPr, 'w:b'))) text = `<strong>${text}</strong>`;
    return text;
  }

  paragraph(p: Element, depth: number): string {
    const inline = this.inline(p, depth + 1).trim();
    if (!inline.includes('<img') && inline.replace(/<[^>]+>/g, '').trim() === '') return '';
    const pPr = child(p, 'w:pPr');
    const style = pPr ? child(pPr, 'w:pStyle')?.getAttribute('w:val') : undefined;
    const level = style ? this.headings.get(style) : undefined;
    return level !== undefined ? `<h${level}>${inline}</h${level}>` : `<p>${inline}</p>`;
  }

  table(tbl: Element, depth: number): string {
    if (depth > MAX_DEPTH) throw new TooDeep();
    interface Cell {
      html: string;
      colspan: number;
      rowspan: number;
      column: number;
      merged: boolean;
    }
    const rows: Cell[][] = [];
    /** The cell that started a vertical merge, per grid column. */
    const openMerges = new Map<number, Cell>();
    for (const tr of Array.from(tbl.children).filter((n) => n.nodeName === 'w:tr')) {
      const cells: Cell[] = [];
      let column = 0;
      for (const tc of Array.from(tr.children).filter((n) => n.nodeName === 'w:tc')) {
        const tcPr = child(tc, 'w:tcPr');
        const span = Number(tcPr ? child(tcPr, 'w:gridSpan')?.getAttribute('w:val') : undefined);
        const colspan = Number.isInteger(span) && span > 1 && span < 1000 ? span : 1;
        const vmerge = tcPr ? child(tcPr, 'w:vmerge') : undefined;
        const cell: Cell = { html: this.blocks(tc, depth + 1, true), colspan, rowspan: 1, column, merged: false };
        if (vmerge && vmerge.getAttribute('w:val') !== 'restart') {
          const origin = openMerges.get(column);
          if (origin) {
            origin.rowspan++;
            cell.merged = true;
          }
        } else if (vmerge) openMerges.set(column, cell);
        else openMerges.delete(column);
        cells.push(cell);
        column += colspan;
      }
      rows.push(cells);
    }
    const rowHtml = (cells: Cell[], tag: string): string =>
      `<tr>${cells
        .filter((c) => !c.merged)
        .map((c) => `<${tag}${c.colspan > 1 ? ` colspan="${c.colspan}"` : ''}${c.rowspan > 1 ? ` rowspan="${c.rowspan}"` : ''}>${c.html}</${tag}>`)
        .join('')}</tr>`;
    if (!rows.some((cells) => cells.some((c) => c.html.replace(/<[^>]+>/g, '').trim() !== ''))) return '';
    const [head, ...body] = rows;
    return `<table><thead>${rowHtml(head ?? [], 'th')}</thead><tbody>${body.map((r) => rowHtml(r, 'td')).join('')}</tbody></table>`;
  }

  /** Block HTML of a container's paragraphs and tables; in a cell, paragraphs join with `<br>`. */
  blocks(container: Element, depth: number, inCell = false): string {
    if (depth > MAX_DEPTH) throw new TooDeep();
    const parts: string[] = [];
    for (const node of Array.from(container.children)) {
      switch (node.nodeName) {
        case 'w:p': {
          const html = this.paragraph(node, depth + 1);
          if (html) parts.push(inCell ? html.replace(/^<(p|h[1-6])>|<\/(p|h[1-6])>$/g, '') : html);
          break;
        }
        case 'w:tbl':
          parts.push(this.table(node, depth + 1));
          break;
        case 'w:sectPr':
        case 'w:tcPr':
        case 'w:tblPr':
        case 'w:tblGrid':
        case 'w:hdr':
        case 'w:ftr':
        case 'w:bgPict':
          break;
        case 'aml:annotation':
          if (node.getAttribute('w:type') === 'Word.Insertion') parts.push(this.blocks(node, depth + 1, inCell));
          break;
        default:
          parts.push(this.blocks(node, depth + 1, inCell));
      }
    }
    const filtered = parts.filter(Boolean);
    return filtered.join(inCell ? '<br>' : '\n');
  }
}

function text(root: Element, name: string): string | undefined {
  const value = root.getElementsByTagName(name)[0]?.textContent?.trim();
  return value || undefined;
}

/** Review comments (`aml:annotation w:type="Word.Comment"`), left out as in every Word reader. */
function hasComments(root: Element): boolean {
  return Array.from(root.getElementsByTagName('aml:annotation')).some((a) => a.getAttribute('w:type') === 'Word.Comment');
}

function readProperties(root: Element): DocumentMetadata {
  const metadata = emptyMetadata();
  const props = root.getElementsByTagName('o:DocumentProperties')[0];
  if (!props) return metadata;
  const title = text(props, 'o:Title');
  const subject = text(props, 'o:Subject');
  const description = text(props, 'o:Description');
  const keywords = text(props, 'o:Keywords');
  const author = text(props, 'o:Author');
  if (title) metadata.title = title;
  if (description) {
    metadata.description = description;
    if (subject) metadata.extra.subject = subject;
  } else if (subject) metadata.description = subject;
  if (keywords) metadata.keywords = keywords;
  if (author) metadata.extra.author = author;
  return metadata;
}

export async function readWordml(input: ReadInput): Promise<ReadResult> {
  const source = input.bytes.toString('utf8');
  let root: Element | null;
  try {
    root = new DOMParser().parseFromString(source, 'text/xml').documentElement as unknown as Element | null;
  } catch {
    throw damaged('its Word 2003 XML is not well-formed.');
  }
  if (!root || root.nodeName !== 'w:wordDocument') throw damaged('it is not a Word 2003 XML document.');
  const body = root.getElementsByTagName('w:body')[0];
  if (!body) throw damaged('its Word 2003 XML has no w:body.');
  input.signal.throwIfAborted();

  const converter = new Converter(headingLevels(root), input.options.removeBase64Images === false);
  const parts: string[] = [];
  try {
    const seen = new Set<string>();
    const furniture = (tag: 'header' | 'footer', name: string): string[] =>
      Array.from(body.getElementsByTagName(name))
        .map((part) => converter.blocks(part, 0))
        .filter((html) => html !== '' && !seen.has(html) && seen.add(html) !== undefined)
        .map((html) => `<${tag} data-furniture="${tag}">${html}</${tag}>`);
    const headers = furniture('header', 'w:hdr');
    const footers = furniture('footer', 'w:ftr');
    parts.push(...headers, converter.blocks(body, 0), ...footers);
  } catch (err) {
    if (err instanceof TooDeep || err instanceof RangeError) throw damaged('its Word 2003 XML is nested too deeply.');
    throw err;
  }
  const document = documentFromHtml(parts.filter(Boolean).join('\n'));
  return {
    document,
    metadata: readProperties(root),
    warnings: hasComments(root) ? [COMMENTS_LEFT_OUT] : [],
    rawHtml: `<!DOCTYPE html>\n${document.documentElement.outerHTML}`,
  };
}
