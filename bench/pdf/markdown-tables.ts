/**
 * Markdown pipe tables → HTML tables, as opendataloader-bench's `converter_markdown_table.py`
 * does before every metric (so both sides use the same table syntax):
 *
 * - a table starts at a line with a `|` followed by a separator row (every cell only `-`/`:`,
 *   spaces ignored, none empty); rows continue while lines contain a `|`;
 * - cells: the trimmed line split on EVERY `|` (an escaped `\|` splits too), one leading and one
 *   trailing empty piece dropped when the line starts/ends with `|`, each cell trimmed;
 * - width = max(header cells, separator cells); a 3-cell row in a wider table becomes
 *   first, middle repeated, last (the evaluator's "colspan-style header" recovery); shorter rows
 *   are padded with empty cells, longer ones cut;
 * - an all-empty header row is replaced by the first body row;
 * - output `<table><tr><th>…</th></tr><tr><td>…</td></tr></table>` with cell text HTML-escaped
 *   (Python `html.escape`, quotes included), keeping the header line's line ending.
 */

/** Python `str.splitlines(keepends=True)` line boundaries. */
const LINE_BREAK = /\r\n|[\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029]/g;

export function splitLinesKeepEnds(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (const m of text.matchAll(LINE_BREAK)) {
    const end = (m.index ?? 0) + m[0].length;
    lines.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** Python `str.splitlines()`. */
export function splitLines(text: string): string[] {
  return splitLinesKeepEnds(text).map((line) => line.replace(/(\r\n|[\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029])$/, ''));
}

/** Python `str.strip()` with no argument (Unicode whitespace). */
export function pyStrip(text: string): string {
  return text.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g, '');
}

/** Python `html.escape(s, quote=True)`. */
export function htmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

function splitRow(line: string): string[] | null {
  const trimmed = pyStrip(line);
  if (!trimmed || !trimmed.includes('|')) return null;
  let cells = trimmed.split('|');
  if (trimmed.startsWith('|')) cells = cells.slice(1);
  if (cells.length > 0 && trimmed.endsWith('|')) cells = cells.slice(0, -1);
  cells = cells.map(pyStrip);
  return cells.length > 0 ? cells : null;
}

function isSeparatorRow(cells: string[]): boolean {
  if (cells.length === 0) return false;
  for (const cell of cells) {
    const content = cell.replaceAll(' ', '');
    if (!content || !/^[-:]+$/.test(content)) return false;
  }
  return true;
}

function normaliseCells(cells: string[], width: number): string[] {
  if (width <= 0 || cells.length === width) return cells;
  if (cells.length === 3 && width > 3) {
    return [cells[0] as string, ...Array<string>(width - 2).fill(cells[1] as string), cells[2] as string];
  }
  if (cells.length < width) return [...cells, ...Array<string>(width - cells.length).fill('')];
  return cells.slice(0, width);
}

function tableHtml(header: string[], rows: string[][]): string {
  const head = `<tr>${header.map((c) => `<th>${htmlEscape(c)}</th>`).join('')}</tr>`;
  const body = rows.map((row) => `<tr>${row.map((c) => `<td>${htmlEscape(c)}</td>`).join('')}</tr>`).join('');
  return `<table>${head}${body}</table>`;
}

export function markdownTablesToHtml(markdown: string): string {
  if (!markdown) return markdown;
  const lines = splitLinesKeepEnds(markdown);
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    let header = splitRow(line);
    if (!header || i + 1 >= lines.length) {
      out.push(line);
      i++;
      continue;
    }
    const separator = splitRow(lines[i + 1] as string);
    if (!separator || !isSeparatorRow(separator)) {
      out.push(line);
      i++;
      continue;
    }
    const width = Math.max(header.length, separator.length);
    header = normaliseCells(header, width);
    const rows: string[][] = [];
    let walker = i + 2;
    while (walker < lines.length) {
      const cells = splitRow(lines[walker] as string);
      if (!cells) break;
      rows.push(normaliseCells(cells, width));
      walker++;
    }
    if (header.length > 0 && header.every((c) => c === '') && rows.length > 0) header = rows.shift() as string[];
    const ending = /(\r\n|\n|\r)$/.exec(line)?.[1] ?? '';
    out.push(tableHtml(header, rows) + ending);
    i = walker;
  }
  return out.join('');
}
