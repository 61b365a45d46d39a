/**
 * ODF text content (ODF 1.2 Part 1 §5–§10) → intermediate-document HTML. One walk over the
 * element tree builds the HTML as string pieces (linear in the input): paragraphs and headings,
 * spans with their automatic styles resolved to strong/em/s/sup/sub, spaces, tabs and line
 * breaks, links, lists (numbered by their list style), tables with spans and header rows, notes
 * (a `[n]` marker in the text; the bodies collected for the end of the document), images and
 * the text of text boxes and shapes. Tracked deletions, comments and declarations are skipped.
 * Nesting deeper than MAX_DEPTH is refused as a damaged file (no real document gets near it).
 */
import { escapeHtml } from '../../document.ts';
import { mathmlToTex } from './mathml.ts';
import { odtCorrupt, type OdtPackage } from './package.ts';
import type { StyleSheet, TextFormat } from './styles.ts';
import { attr, cleanText, firstChildNamed, intAttr, parsePart } from './xml.ts';

export const MAX_DEPTH = 200;
/** Repeated rows and cells (`number-*-repeated`) are written out at most this often. */
const MAX_REPEAT = 100;
const MAX_ROW_CELLS = 1000;
/** Characters that repeated rows and cells may add to the output, over the whole document. */
const REPEAT_BUDGET = 16 * 1024 * 1024;
/** Characters of data: URIs the pictures may add, over the whole document. */
const EMBED_BUDGET = 64 * 1024 * 1024;
/** Embedded objects expanded (charts, spreadsheets, formulas), over the whole document. */
const MAX_OBJECTS = 64;
export const IMAGE_FALLBACK_ALT = 'Image';

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  bmp: 'image/bmp',
};

/** Elements whose content is never document text. */
const SKIPPED = new Set([
  'text:tracked-changes',
  'text:sequence-decls',
  'text:variable-decls',
  'text:user-field-decls',
  'text:dde-connection-decls',
  'office:forms',
  'office:annotation',
  'office:annotation-end',
  'text:table-of-content-source',
  'text:alphabetical-index-source',
  'text:illustration-index-source',
  'text:table-index-source',
  'text:object-index-source',
  'text:user-index-source',
  'text:bibliography-source',
  'text:soft-page-break',
  'table:table-columns',
  'table:table-column',
  'table:table-column-group',
  'table:table-header-columns',
  'svg:title',
  'svg:desc',
  'office:event-listeners',
  'draw:contour-polygon',
  'draw:contour-path',
  'draw:image-map',
  'text:note-citation',
]);

/** Containers whose children are block content (sections, indexes, their bodies). */
const BLOCK_CONTAINERS = new Set([
  'office:text',
  'text:section',
  'text:table-of-content',
  'text:illustration-index',
  'text:alphabetical-index',
  'text:table-index',
  'text:object-index',
  'text:user-index',
  'text:bibliography',
  'text:index-body',
  'text:index-title',
  'text:numbered-paragraph',
  'office:change-info',
  'draw:text-box',
]);

/** Innermost first: a run is written `<strong><em><s>text</s></em></strong>`. */
const FORMAT_TAGS: Array<[keyof TextFormat, string]> = [
  ['strike', 's'],
  ['italic', 'em'],
  ['bold', 'strong'],
];

export interface ConvertOptions {
  pkg: OdtPackage;
  styles: StyleSheet;
  embedImages: boolean;
  /** Notes found so far; shared so that numbering continues across parts. */
  notes: string[];
  warnings: Set<string>;
  /** Checked between blocks: a parse past its timeout stops here. */
  signal?: AbortSignal;
}

interface Context {
  format: TextFormat;
  depth: number;
  /** Blocks (text boxes, shapes) met inside a paragraph, written after it. */
  pending: string[];
  /** In a heading, whose cached outline number (`text:number`) is kept as text. */
  heading?: boolean;
}

export class OdtConverter {
  private readonly options: ConvertOptions;
  private repeatBudget = REPEAT_BUDGET;
  private embedBudget = EMBED_BUDGET;
  private objectsLeft = MAX_OBJECTS;
  /** Objects being expanded right now: an object never expands inside itself. */
  private readonly activeObjects = new Set<string>();

  constructor(options: ConvertOptions) {
    this.options = options;
  }

  /** The block content of a container element. */
  blocks(parent: Element, depth = 0): string {
    const out: string[] = [];
    this.blocksInto(parent, depth, out);
    return out.join('');
  }

  private enter(depth: number): number {
    if (depth > MAX_DEPTH) throw odtCorrupt(`its content is nested more than ${MAX_DEPTH} levels deep.`);
    return depth + 1;
  }

  private blocksInto(parent: Element, depth: number, out: string[]): void {
    const next = this.enter(depth);
    const signal = this.options.signal;
    let count = 0;
    for (const child of Array.from(parent.children)) {
      if (signal && ++count % 256 === 0) signal.throwIfAborted();
      this.block(child, next, out);
    }
  }

  private block(el: Element, depth: number, out: string[]): void {
    const name = el.tagName;
    if (SKIPPED.has(name)) return;
    if (name === 'text:p' || name === 'text:h') {
      this.paragraph(el, depth, out);
    } else if (name === 'text:list') {
      out.push(this.list(el, depth, 1, undefined));
    } else if (name === 'table:table') {
      out.push(this.table(el, depth));
    } else if (BLOCK_CONTAINERS.has(name)) {
      this.blocksInto(el, depth, out);
    } else {
      // A frame or shape anchored to the page, or an unknown element: its inline content as a paragraph.
      const context: Context = { format: {}, depth, pending: [] };
      const html = this.inline(el, context).trim();
      if (html) out.push(`<p>${html}</p>`);
      out.push(...context.pending);
    }
  }

  private paragraph(el: Element, depth: number, out: string[]): void {
    const facts = this.options.styles.paragraph(attr(el, 'text:style-name'));
    let level = facts.headingLevel;
    if (el.tagName === 'text:h') {
      const outline = intAttr(el, 'text:outline-level', 0);
      level = Math.min(6, Math.max(1, outline || level || 1));
    }
    const context: Context = { format: level === undefined ? facts.format : {}, depth, pending: [], heading: level !== undefined };
    const html = mergeRuns(this.inline(el, context).trim());
    const hasText = /[^\s]/.test(el.textContent ?? '');
    if (level !== undefined && hasText) out.push(`<h${level}>${html}</h${level}>`);
    else if (html) out.push(`<p>${html}</p>`);
    out.push(...context.pending);
  }

  /** Inline content of an element: text, spans, breaks, links, notes, frames. */
  private inline(parent: Element, context: Context): string {
    const out: string[] = [];
    const depth = this.enter(context.depth);
    const inner: Context = { ...context, depth };
    for (const node of Array.from(parent.childNodes)) {
      if (node.nodeType === 3) {
        out.push(wrapFormat(escapeHtml((node.nodeValue ?? '').replace(/[ \t\r\n]+/g, ' ')), inner.format));
        continue;
      }
      if (node.nodeType !== 1) continue;
      const el = node as Element;
      const name = el.tagName;
      if (SKIPPED.has(name)) continue;
      switch (name) {
        case 'text:s': {
          out.push(' '.repeat(Math.min(Math.max(intAttr(el, 'text:c', 1), 1), 64)));
          break;
        }
        case 'text:tab':
          out.push('\t');
          break;
        case 'text:line-break':
          out.push('<br>');
          break;
        case 'text:span': {
          const format = this.options.styles.textFormat(attr(el, 'text:style-name'), 'text');
          const merged = { ...inner.format, ...definedOnly(format) };
          out.push(this.inline(el, { ...inner, format: merged }));
          break;
        }
        case 'text:a':
        case 'draw:a': {
          const href = attr(el, 'xlink:href');
          const html = this.inline(el, inner);
          out.push(href ? `<a href="${escapeHtml(href.trim())}">${html}</a>` : html);
          break;
        }
        case 'text:note':
          out.push(this.note(el, depth));
          break;
        case 'draw:frame':
          out.push(this.frame(el, inner));
          break;
        case 'text:number': {
          // The label LibreOffice caches for a numbered paragraph: kept for headings ("2.1 Scope"),
          // dropped in list items, whose numbers the list itself gives.
          const label = cleanText(el);
          if (inner.heading && label) out.push(`${escapeHtml(label)} `);
          break;
        }
        case 'text:ruby':
          out.push(this.inline(firstChildNamed(el, 'text:ruby-base') ?? el, inner));
          break;
        case 'text:p':
        case 'text:h':
        case 'text:list':
        case 'table:table':
          this.block(el, depth, inner.pending);
          break;
        default:
          if (hasBlockChild(el)) this.blocksInto(el, depth, inner.pending);
          else out.push(this.inline(el, inner));
      }
    }
    return out.join('');
  }

  private note(el: Element, depth: number): string {
    const notes = this.options.notes;
    const index = notes.length;
    notes.push('');
    const body = firstChildNamed(el, 'text:note-body');
    notes[index] = body ? this.blocks(body, depth) : '';
    return `<sup>[${index + 1}]</sup>`;
  }

  private frame(el: Element, context: Context): string {
    const alt = cleanText(firstChildNamed(el, 'svg:title')) ?? cleanText(firstChildNamed(el, 'svg:desc'));
    const out: string[] = [];
    let imageDone = false;
    for (const child of Array.from(el.children)) {
      const name = child.tagName;
      if (name === 'draw:object' || name === 'draw:object-ole') {
        const formula = this.embeddedObject(child, context);
        if (formula !== undefined) {
          // A formula (as TeX, else its StarMath text) stands in for its replacement picture.
          out.push(formula);
          imageDone = true;
        }
      }
    }
    for (const child of Array.from(el.children)) {
      const name = child.tagName;
      if (name === 'draw:image' && !imageDone) {
        imageDone = true;
        out.push(this.image(child, alt ?? cleanText(firstChildNamed(child, 'svg:title')) ?? attr(el, 'draw:name')));
      } else if (name === 'draw:text-box') {
        this.blocksInto(child, context.depth, context.pending);
      }
    }
    return out.join('');
  }

  /**
   * An embedded object (`Object N/content.xml`): a chart gives its title and data table, a
   * spreadsheet its tables (both written after the paragraph), a formula its HTML: `<math
   * alttext="TeX">` from its MathML (mathml.ts), else its StarMath text (returned, to stand in
   * the line). Other objects are left to their replacement picture.
   */
  private embeddedObject(el: Element, context: Context): string | undefined {
    const href = attr(el, 'xlink:href');
    const folder = href?.replace(/^\.\//, '').replace(/\/+$/, '');
    const part = folder ? this.options.pkg.resolve(`${folder}/content.xml`) : undefined;
    if (!part || this.activeObjects.has(part) || this.objectsLeft <= 0) return undefined;
    this.objectsLeft--;
    this.activeObjects.add(part);
    try {
      return this.expandObject(part, context);
    } finally {
      this.activeObjects.delete(part);
    }
  }

  private expandObject(part: string, context: Context): string | undefined {
    const xml = this.options.pkg.textOf(part);
    const root = xml !== undefined ? (parsePart(xml, part).documentElement ?? undefined) : undefined;
    if (root?.tagName === 'math:math') {
      const tex = mathmlToTex(root);
      if (tex !== '') return `<math display="inline" alttext="${escapeHtml(tex)}">${escapeHtml(tex)}</math>`;
      const annotation = cleanText(root.getElementsByTagName('math:annotation')[0]) ?? cleanText(root);
      if (annotation) return escapeHtml(annotation);
    }
    const body = firstChildNamed(root, 'office:body');
    const chart = firstChildNamed(firstChildNamed(body, 'office:chart'), 'chart:chart');
    const spreadsheet = firstChildNamed(body, 'office:spreadsheet');
    if (chart) {
      const title = cleanText(firstChildNamed(chart, 'chart:title'));
      if (title) context.pending.push(`<p>${escapeHtml(title)}</p>`);
      const table = firstChildNamed(chart, 'table:table');
      if (table) context.pending.push(this.table(table, context.depth));
    } else if (spreadsheet) {
      for (const table of Array.from(spreadsheet.children)) {
        if (table.tagName === 'table:table') context.pending.push(this.table(table, context.depth));
      }
    } else {
      this.options.warnings.add('Embedded objects other than charts, spreadsheets and formulas are shown by their replacement picture or left out.');
    }
    return undefined;
  }

  private image(el: Element, alt: string | undefined): string {
    const altText = escapeHtml(alt?.trim() || IMAGE_FALLBACK_ALT);
    if (!this.options.embedImages) return `<img alt="${altText}">`;
    const href = attr(el, 'xlink:href');
    const extension = /\.([A-Za-z]+)$/.exec(href ?? '')?.[1]?.toLowerCase() ?? '';
    const type = IMAGE_TYPES[extension];
    if (href && /^https?:\/\//i.test(href)) return `<img src="${escapeHtml(href)}" alt="${altText}">`;
    const stored = href ? this.options.pkg.resolve(href) : undefined;
    const bytes = stored && type ? this.options.pkg.bytesOf(stored) : undefined;
    if (!bytes || !type) {
      if (href) this.options.warnings.add('Some pictures are in formats browsers do not show (such as SVM or WMF); they are given as placeholders.');
      return `<img alt="${altText}">`;
    }
    const encodedLength = Math.ceil(bytes.length / 3) * 4;
    if (encodedLength > this.embedBudget) {
      this.options.warnings.add('Some pictures were left as placeholders: the embedded pictures passed the size folio inlines as data: URIs.');
      return `<img alt="${altText}">`;
    }
    this.embedBudget -= encodedLength;
    return `<img src="data:${type};base64,${Buffer.from(bytes).toString('base64')}" alt="${altText}">`;
  }

  private list(el: Element, depth: number, level: number, inherited: string | undefined): string {
    const next = this.enter(depth);
    const listStyle = attr(el, 'text:style-name') ?? inherited ?? this.firstParagraphListStyle(el);
    const items = Array.from(el.children).filter((c) => c.tagName === 'text:list-item' || c.tagName === 'text:list-header');
    // Outline-numbered headings are written as list items holding only a heading: keep them headings.
    if (items.length > 0 && items.every((item) => onlyHeadings(item))) {
      const out: string[] = [];
      for (const item of items) this.itemBlocks(item, next, level, listStyle, out);
      return out.join('');
    }
    const tag = this.options.styles.listKind(listStyle, level);
    const out: string[][] = [];
    this.collectItems(items, next, level, listStyle, out);
    return out.length ? `<${tag}>${out.map((parts) => `<li>${parts.join('')}</li>`).join('')}</${tag}>` : '';
  }

  /** The items of one list, each as HTML parts, appended to `out`. */
  private collectItems(items: readonly Element[], next: number, level: number, listStyle: string | undefined, out: string[][]): void {
    for (const item of items) {
      const parts: string[] = [];
      // An item holding only a nested list continues the previous item at a deeper level; with
      // no previous item, the nested items join this list.
      const previous = out.at(-1);
      const wrapperOnly = Array.from(item.children).every((c) => c.tagName === 'text:list' || SKIPPED.has(c.tagName));
      if (wrapperOnly && previous === undefined) {
        for (const child of Array.from(item.children)) {
          if (child.tagName !== 'text:list') continue;
          const nested = Array.from(child.children).filter((c) => c.tagName === 'text:list-item' || c.tagName === 'text:list-header');
          this.collectItems(nested, this.enter(next), level + 1, attr(child, 'text:style-name') ?? listStyle, out);
        }
        continue;
      }
      let lastWasText = false;
      for (const child of Array.from(item.children)) {
        if (child.tagName === 'text:p' || child.tagName === 'text:h') {
          const context: Context = { format: {}, depth: next, pending: [] };
          const facts = this.options.styles.paragraph(attr(child, 'text:style-name'));
          const html = mergeRuns(this.inline(child, { ...context, format: facts.format }).trim());
          if (html) {
            if (lastWasText) parts.push('<br>');
            parts.push(html);
            lastWasText = true;
          }
          parts.push(...context.pending);
          if (context.pending.length > 0) lastWasText = false;
        } else if (child.tagName === 'text:list') {
          parts.push(this.list(child, next, level + 1, attr(child, 'text:style-name') ?? listStyle));
          lastWasText = false;
        } else {
          this.block(child, next, parts);
          lastWasText = false;
        }
      }
      if (wrapperOnly && previous !== undefined) previous.push(...parts);
      else out.push(parts);
    }
  }

  private itemBlocks(item: Element, depth: number, level: number, listStyle: string | undefined, out: string[]): void {
    for (const child of Array.from(item.children)) {
      if (child.tagName === 'text:list') out.push(this.list(child, depth, level + 1, attr(child, 'text:style-name') ?? listStyle));
      else this.block(child, depth, out);
    }
  }

  private firstParagraphListStyle(list: Element): string | undefined {
    const item = firstChildNamed(list, 'text:list-item');
    const paragraph = item ? (firstChildNamed(item, 'text:p') ?? firstChildNamed(item, 'text:h')) : undefined;
    return paragraph ? this.options.styles.paragraph(attr(paragraph, 'text:style-name')).listStyle : undefined;
  }

  private table(el: Element, depth: number): string {
    const next = this.enter(depth);
    const head: string[] = [];
    const body: string[] = [];
    this.rows(el, next, false, head, body);
    if (head.length === 0 && body.length === 0) return '';
    const thead = head.length ? `<thead>${head.join('')}</thead>` : '';
    const tbody = body.length ? `<tbody>${body.join('')}</tbody>` : '';
    return `<table>${thead}${tbody}</table>`;
  }

  private rows(container: Element, depth: number, header: boolean, head: string[], body: string[]): void {
    const next = this.enter(depth);
    for (const child of Array.from(container.children)) {
      const name = child.tagName;
      if (name === 'table:table-header-rows') this.rows(child, next, true, head, body);
      else if (name === 'table:table-rows' || name === 'table:table-row-group') this.rows(child, next, header, head, body);
      else if (name === 'table:table-row') {
        const html = this.row(child, next, header);
        const repeat = this.repeats(intAttr(child, 'table:number-rows-repeated', 1), child, html);
        for (let i = 0; i < repeat; i++) (header ? head : body).push(html);
      }
    }
  }

  private row(el: Element, depth: number, header: boolean): string {
    const cells: string[] = [];
    let count = 0;
    for (const cell of Array.from(el.children)) {
      if (cell.tagName !== 'table:table-cell') continue; // covered cells are part of a spanning cell
      const tag = header ? 'th' : 'td';
      const colspan = intAttr(cell, 'table:number-columns-spanned', 1);
      const rowspan = intAttr(cell, 'table:number-rows-spanned', 1);
      const spans = `${colspan > 1 ? ` colspan="${Math.min(colspan, MAX_ROW_CELLS)}"` : ''}${rowspan > 1 ? ` rowspan="${Math.min(rowspan, 65534)}"` : ''}`;
      const html = `<${tag}${spans}>${this.cellContent(cell, depth)}</${tag}>`;
      const repeat = this.repeats(intAttr(cell, 'table:number-columns-repeated', 1), cell, html);
      for (let i = 0; i < repeat && count < MAX_ROW_CELLS; i++, count++) cells.push(html);
    }
    return `<tr>${cells.join('')}</tr>`;
  }

  /**
   * How often a repeated row or cell is written: an empty one once (spreadsheet-style filler),
   * one with content up to MAX_REPEAT times while the document's repeat budget lasts.
   */
  private repeats(declared: number, el: Element, html: string): number {
    if (declared <= 1 || !/[^\s]/.test(el.textContent ?? '')) return 1;
    const wanted = Math.min(declared, MAX_REPEAT) - 1;
    const affordable = Math.min(wanted, Math.floor(this.repeatBudget / Math.max(html.length, 1)));
    if (affordable < wanted) this.options.warnings.add('Some repeated table rows or cells were written once: the document repeats more content than folio expands.');
    this.repeatBudget -= affordable * html.length;
    return 1 + affordable;
  }

  /** A cell with one paragraph holds its inline content; otherwise its blocks. */
  private cellContent(cell: Element, depth: number): string {
    const children = Array.from(cell.children).filter((c) => !SKIPPED.has(c.tagName));
    const html = this.blocks(cell, depth);
    if (children.length === 1 && /^<p>((?:(?!<p>|<\/p>).)*)<\/p>$/s.test(html)) return html.slice(3, -4);
    return html;
  }
}

function definedOnly(format: TextFormat): TextFormat {
  const out: TextFormat = {};
  if (format.bold !== undefined) out.bold = format.bold;
  if (format.italic !== undefined) out.italic = format.italic;
  if (format.strike !== undefined) out.strike = format.strike;
  if (format.position !== undefined) out.position = format.position;
  return out;
}

/**
 * Wraps one text run in the tags of its full format, always in the same order, so that a span
 * turning bold off inside a bold paragraph is simply not bold; mergeRuns joins neighbours.
 */
function wrapFormat(text: string, format: TextFormat): string {
  if (!/[^\s]/.test(text)) return text;
  let result = text;
  for (const [key, tag] of FORMAT_TAGS) {
    if (format[key] === true) result = `<${tag}>${result}</${tag}>`;
  }
  if (format.position) result = `<${format.position}>${result}</${format.position}>`;
  return result;
}

const ADJACENT_RUNS = /<\/(strong|em|s|sup|sub)>(\s*)<\1>/g;

/** `<strong>a</strong> <strong>b</strong>` → `<strong>a b</strong>`, outward until nothing changes. */
function mergeRuns(html: string): string {
  let current = html;
  for (let pass = 0; pass < 8; pass++) {
    const next = current.replace(ADJACENT_RUNS, '$2');
    if (next === current) break;
    current = next;
  }
  return current;
}

function hasBlockChild(el: Element): boolean {
  for (const child of Array.from(el.children)) {
    const name = child.tagName;
    if (name === 'text:p' || name === 'text:h' || name === 'text:list' || name === 'table:table') return true;
  }
  return false;
}

function onlyHeadings(item: Element, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  let heading = false;
  for (const child of Array.from(item.children)) {
    if (child.tagName === 'text:h') heading = true;
    else if (child.tagName === 'text:list') {
      if (!Array.from(child.children).every((c) => (c.tagName !== 'text:list-item' && c.tagName !== 'text:list-header') || onlyHeadings(c, depth + 1))) return false;
    } else if (!SKIPPED.has(child.tagName)) return false;
  }
  return heading;
}
