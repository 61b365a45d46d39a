/**
 * The truth of an office document printed by LibreOffice (bench/pdf/office-pdf.ts), read by an
 * independent reader: pandoc's HTML of the document (`pandoc FILE -s -t html`), in the shape
 * bench:printed's truth has (printed-truth.ts PageTruth), so its scoring and sample rules apply.
 *
 *   headings  every h1–h6 outside a table (level, text whitespace-collapsed; none without a letter
 *             or a digit), in document order. A paragraph in Word's Title style is pandoc's
 *             document title (`<h1 class="title">` in the title block): read as the first h1 when
 *             `title` is set (docx, and .doc converted to docx) — for RTF and ODT the title block
 *             is the file's metadata (RTF `\info\title`), never printed, and is left out;
 *   tables    every table of data (two rows with a filled cell, one row with two) not inside
 *             another table, as plain HTML (`<table><tr><td>`, colspan/rowspan kept, th written
 *             td, cell text whitespace-collapsed with its paragraphs and list items apart); any
 *             other table is read as its text;
 *   nested    how many tables sit inside another table;
 *   tablesLeftOut  why the document's tables are not scored (TEDS left out), when pandoc's reading
 *             of them is known to be wrong: pandoc 2.17's ODT reader drops merged cells (an
 *             ODT's `table:number-columns-spanned` / `number-rows-spanned` come out as separate
 *             cells, the covered ones empty) and nested tables (their cells are gone); its
 *             docx reader keeps both (`gridSpan`, `vMerge`: colspan/rowspan; a nested table as
 *             a table in the cell) but drops `w:gridBefore` (a row's cells moved left). The
 *             source's own tables are read by `odtTableFlaws` and `docxTableFlaws`;
 *   markdown  the document's text in order, a block per line, each heading as a `#` line and
 *             each table of data as its HTML (a text line starting with `#` escaped `\#`).
 * Left out of the text, since the PDF does not print them as pandoc writes them: TeX of math
 * (`span.math`), a figure's caption (pandoc 2.17 writes an image's alt text there; a Word
 * caption is a paragraph of its own), footnote back-links (↩) and images. A list item outside a
 * table is a Markdown item (`- text`, `3. text`), as the pdf bench's references write a list
 * element: the page prints its bullet or number, so a reader that writes the list is not charged
 * for it. An RTF's items come from pandoc as paragraphs starting with their bullet (`• text`),
 * written `- text` the same way.
 */
import { parseHTML } from 'linkedom';
import type { PageTruth } from './printed-truth.ts';

/** The parts of linkedom's DOM the reader walks. */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentNode: DomNode | null;
}
interface DomElement extends DomNode {
  tagName: string;
  classList: { contains(name: string): boolean };
  getAttribute(name: string): string | null;
  closest(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  children: ArrayLike<DomElement>;
}

const BLOCK = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DD', 'DIV', 'DL', 'DT', 'FIGURE', 'FOOTER', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'UL', 'TR', 'CAPTION']);
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'IMG', 'SVG', 'FIGCAPTION', 'COLGROUP', 'HEAD', 'TITLE']);
const HEADING = /^H[1-6]$/u;

const clean = (s: string): string => s.replace(/\s+/gu, ' ').trim();
const esc = (s: string): string => s.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
const isElement = (n: DomNode): n is DomElement => n.nodeType === 1;

function skipped(el: DomElement): boolean {
  if (SKIPPED.has(el.tagName)) return true;
  if (el.tagName === 'SPAN' && el.classList.contains('math')) return true;
  return el.tagName === 'A' && el.classList.contains('footnote-back');
}

/** A table's own rows (not those of a table inside it). */
function ownRows(table: DomElement): DomElement[] {
  return Array.from(table.querySelectorAll('tr')).filter((tr) => tr.closest('table') === table);
}

function ownCells(row: DomElement): DomElement[] {
  return Array.from(row.children).filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
}

/** The text of an element as blocks, a block per line (`\n`), inline whitespace collapsed. */
function blockText(node: DomNode, pre = false): string {
  if (node.nodeType === 3) return pre ? (node.textContent ?? '') : (node.textContent ?? '').replace(/\s+/gu, ' ');
  if (!isElement(node)) return '';
  if (skipped(node)) return '';
  if (node.tagName === 'BR') return '\n';
  const inner = Array.from(node.childNodes)
    .map((c) => blockText(c, pre || node.tagName === 'PRE'))
    .join('');
  if (node.tagName === 'TD' || node.tagName === 'TH') return ` ${inner} `;
  return BLOCK.has(node.tagName) || HEADING.test(node.tagName) || node.tagName === 'TABLE' ? `\n${inner}\n` : inner;
}

/** A table as the bench's plain HTML, or undefined when it is no table of data. */
function dataTable(table: DomElement): string | undefined {
  let html = '<table>';
  let rows = 0;
  let wide = false;
  for (const row of ownRows(table)) {
    html += '<tr>';
    let filled = 0;
    for (const cell of ownCells(row)) {
      let attrs = '';
      const colspan = Number(cell.getAttribute('colspan') ?? '1');
      const rowspan = Number(cell.getAttribute('rowspan') ?? '1');
      if (colspan > 1) attrs += ` colspan="${colspan}"`;
      if (rowspan > 1) attrs += ` rowspan="${rowspan}"`;
      const text = clean(blockText(cell));
      if (text) filled++;
      html += `<td${attrs}>${esc(text)}</td>`;
    }
    html += '</tr>';
    if (filled >= 1) rows++;
    if (filled >= 2) wide = true;
  }
  html += '</table>';
  return rows >= 2 && wide ? html : undefined;
}

export interface OfficeTruthOptions {
  /** Read pandoc's title block (`h1.title`) as the document's first heading: a docx's Title style. */
  title: boolean;
  /**
   * For each of the source's top-level tables in order, why pandoc's reading of it is wrong, or
   * undefined when it is right (an ODT: `odtTableFlaws`). Pandoc writes every top-level table, so
   * its k-th table is the source's k-th; when the counts differ, every table is in doubt.
   */
  tableFlaws?: readonly (string | undefined)[];
}

const SPANNED = /table:number-(?:columns|rows)-spanned="(\d+)"/gu;
const TABLE_TAG = /<(\/?)table:table(?=[\s>/])/gu;

const WORD_TABLE_TAG = /<(\/?)w:tbl(?=[\s>/])/gu;
const GRID_BEFORE = /<w:gridBefore\b[^>]*w:val="(\d+)"/gu;

/**
 * A Word document's top-level tables (word/document.xml), each with why pandoc 2.17 misreads
 * it — a row starting after skipped grid columns (`w:gridBefore`: pandoc drops the skip and
 * moves the row's cells left) — or undefined. Merged cells and nested tables it reads right.
 */
export function docxTableFlaws(documentXml: string): (string | undefined)[] {
  const flaws: (string | undefined)[] = [];
  let depth = 0;
  let start = 0;
  for (const m of documentXml.matchAll(WORD_TABLE_TAG)) {
    if (m[1] === '/') {
      depth--;
      if (depth === 0) {
        const skipped = [...documentXml.slice(start, m.index).matchAll(GRID_BEFORE)].some((g) => Number(g[1]) > 0);
        flaws.push(skipped ? 'a row starting after skipped columns (pandoc 2.17 drops w:gridBefore)' : undefined);
      }
    } else {
      if (depth === 0) start = m.index;
      depth++;
    }
  }
  return flaws;
}

/**
 * An ODT's top-level tables (content.xml), each with why pandoc 2.17 misreads it — merged cells
 * or a table nested in it (both dropped by its ODT reader) — or undefined.
 */
export function odtTableFlaws(contentXml: string): (string | undefined)[] {
  const flaws: (string | undefined)[] = [];
  let depth = 0;
  let start = 0;
  let nested = false;
  for (const m of contentXml.matchAll(TABLE_TAG)) {
    const closing = m[1] === '/';
    const selfClosing = !closing && contentXml[contentXml.indexOf('>', m.index) - 1] === '/';
    if (closing) {
      depth--;
      if (depth === 0) {
        const spans = [...contentXml.slice(start, m.index).matchAll(SPANNED)].some((s) => Number(s[1]) > 1);
        flaws.push(nested ? 'a nested table (pandoc 2.17 reads ODT without it)' : spans ? 'merged cells (pandoc 2.17 reads ODT spans as separate cells)' : undefined);
      }
    } else if (!selfClosing) {
      if (depth === 0) {
        start = m.index;
        nested = false;
      } else nested = true;
      depth++;
    }
  }
  return flaws;
}

/** A paragraph that starts with a bullet glyph: pandoc's reading of an RTF's list item (`\\listtext`). */
const BULLET_PARAGRAPH = /^[•◦▪●■·]\s+(?=\S)/u;

/**
 * A list item's Markdown marker, as the pdf bench's references write a list element and folio's
 * writer writes an item: `- ` in a `<ul>`, the item's number and `. ` in an `<ol>` (its `start`,
 * then one per item). Pandoc's footnotes (`section.footnotes`, an `<ol>`) are no list of the
 * page's and keep their text alone.
 */
function itemMarker(li: DomElement): string {
  const list = li.parentNode;
  if (!list || !isElement(list) || list.tagName !== 'OL') return '- ';
  const start = Number.parseInt(list.getAttribute('start') ?? '', 10);
  const index = Array.from(list.children).filter((c) => c.tagName === 'LI').indexOf(li);
  return `${(Number.isFinite(start) ? start : 1) + index}. `;
}

/** The truth of one document from pandoc's standalone HTML of it. */
export function officeTruth(html: string, options: OfficeTruthOptions): PageTruth {
  const { document } = parseHTML(html) as unknown as { document: { body: DomElement | null } };
  const body = document.body;
  if (!body) return { headings: [], tables: [], nested: 0, markdown: '' };
  const nested = body.querySelectorAll('table table').length;
  const headings: PageTruth['headings'] = [];
  const tables: string[] = [];
  const flaws = options.tableFlaws;
  const topTables = Array.from(body.querySelectorAll('table')).filter((t) => !(t.parentNode && isElement(t.parentNode) && t.parentNode.closest('table')));
  let leftOut: string | undefined;
  if (flaws && flaws.length !== topTables.length) leftOut = `pandoc wrote ${topTables.length} tables of the source's ${flaws.length}`;
  let tableIndex = 0;
  const walk = (node: DomNode): string => {
    if (!isElement(node)) return blockText(node);
    if (skipped(node)) return '';
    if (node.tagName === 'PRE') return blockText(node);
    if (node.tagName === 'HEADER' && node.getAttribute('id') === 'title-block-header') {
      const title = node.querySelectorAll('h1.title')[0];
      const text = title ? clean(blockText(title)) : '';
      const rest = Array.from(node.childNodes)
        .filter((c) => c !== title)
        .map((c) => blockText(c))
        .join('');
      if (!options.title || !/[\p{L}\p{N}]/u.test(text)) return options.title ? `\n${text}\n${rest}\n` : `\n${rest}\n`;
      headings.push({ level: 1, text });
      return `\n\n\u2063H${headings.length - 1}\u2063\n\n${rest}\n`;
    }
    if (HEADING.test(node.tagName) && !node.closest('table')) {
      const text = clean(blockText(node));
      if (!/[\p{L}\p{N}]/u.test(text)) return `\n${text}\n`;
      const level = Number(node.tagName.slice(1));
      headings.push({ level, text });
      return `\n\n\u2063H${headings.length - 1}\u2063\n\n`;
    }
    if (node.tagName === 'TABLE') {
      const flaw = flaws?.[tableIndex++];
      const table = dataTable(node);
      if (table !== undefined && flaw !== undefined) leftOut ??= flaw;
      if (table === undefined) return blockText(node);
      tables.push(table);
      return `\n\n\u2063T${tables.length - 1}\u2063\n\n`;
    }
    const inner = Array.from(node.childNodes).map(walk).join('');
    // An item that opens with a heading or a table stays that heading or table.
    if (node.tagName === 'LI' && !node.closest('section.footnotes') && !/^\s*\u2063/u.test(inner)) return `\n${itemMarker(node)}${inner.replace(/^\s+/u, '')}\n`;
    return BLOCK.has(node.tagName) ? `\n${inner}\n` : inner;
  };
  // Each line trimmed; a text line that starts like a heading line is escaped, then the
  // headings and tables are put in.
  const markdown = `${walk(body)
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/gu, ' ').trim().replace(/^(#{1,6})(?=\s|$)/u, '\\$1').replace(BULLET_PARAGRAPH, '- '))
    .join('\n')
    .replace(/\u2063H(\d+)\u2063/gu, (_, i: string) => {
      const h = headings[Number(i)] as PageTruth['headings'][number];
      return `${'#'.repeat(h.level)} ${h.text}`;
    })
    .replace(/\u2063T(\d+)\u2063/gu, (_, i: string) => tables[Number(i)] ?? '')
    .replace(/\n{3,}/gu, '\n\n')
    .trim()}\n`;
  return { headings, tables, nested, markdown, ...(leftOut !== undefined && tables.length > 0 ? { tablesLeftOut: leftOut } : {}) };
}
