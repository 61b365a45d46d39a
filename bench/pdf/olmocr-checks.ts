/**
 * olmOCR-bench's unit tests ("checks") scored on one page's markdown: folio's own implementation
 * of the semantics of allenai/olmocr `olmocr/bench/tests.py` (read to understand them, not copied).
 *
 * - Normalisation (`normaliseText`): `<br>` → space; `**x**`, `__x__`, `*x*`, `_x_`, `<b>`, `<i>`
 *   markers dropped; every whitespace run → one space; NFC; curly quotes → straight, dashes and
 *   the minus sign → `-`, `＿` → `_`, micro sign → Greek mu.
 * - `present` / `absent`: the normalised text (lower-cased on both sides when `case_sensitive` is
 *   false) against the normalised page, cut to its first `first_n` and/or last `last_n`
 *   characters. threshold = 1 − max_diffs / len(text); score = rapidfuzz `partial_ratio`: the best
 *   `ratio` (2·LCS / (len a + len b)) of the text against every window of the page of the text's
 *   length, and the shorter windows at either end (`partialRatio`). present passes at
 *   score ≥ threshold, absent below it. A page shorter than len(text) − max_diffs fails present
 *   and passes absent (olmOCR's length guard).
 * - `order`: every occurrence of `before` and of `after` within Levenshtein distance max_diffs
 *   (fuzzysearch `find_near_matches`); passes when some `before` starts before some `after`.
 * - `table`: every table of the page, markdown pipe tables and HTML `<table>`s. A pipe table is a
 *   run of ≥ 2 lines containing `|`; its separator row (only `-`, ` `, `:` once pipes are removed)
 *   and lines made only of `- :|` are skipped, cells split on `|`, one empty piece dropped at
 *   each end; row 0 and column 0 are headings. HTML: `th` cells and cells of a `thead` are
 *   headings, colspan/rowspan occupy the grid. A cell matches at `ratio` ≥ max(0.5,
 *   1 − max_diffs / len); `up`/`down`/`left`/`right` are the nearest occupied cells in that
 *   direction, `top_heading`/`left_heading` any heading cell above / to the left; each given
 *   relation must have one neighbour matching at the same threshold. Passes when one matching
 *   cell of one table satisfies all relations.
 * - `baseline`: with `max_length`, the count of alphanumeric characters must not exceed it (a blank
 *   page); without, the page must have some alphanumeric text and no CJK/emoji characters.
 *
 * Where folio's scorer deliberately differs from olmOCR's:
 * - `math` is compared as text only: a LaTeX span of the page (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`)
 *   must equal the expected formula once whitespace is removed. olmOCR renders both with KaTeX and
 *   compares the pictures; folio writes no LaTeX, so every math check fails either way and is
 *   reported, not chased.
 * - `baseline` without `max_length` skips olmOCR's repeated-n-gram detector (the sample's only
 *   baseline check is a blank page, which has `max_length`).
 * - `order` with max_diffs > 0 takes every position where a match within the distance ends (not
 *   fuzzysearch's consolidated matches), which can only find more orderings, never fewer.
 */
import { parseHTML } from 'linkedom';
import { codePoints, lcsLength, type CodePoints } from './edit-distance.ts';

export type CheckType = 'present' | 'absent' | 'order' | 'table' | 'math' | 'baseline';
export const CHECK_TYPES: readonly CheckType[] = ['present', 'absent', 'order', 'table', 'math', 'baseline'];

interface CheckBase {
  pdf: string;
  page: number;
  id: string;
  max_diffs?: number;
}
export interface TextCheck extends CheckBase {
  type: 'present' | 'absent';
  text: string;
  case_sensitive?: boolean;
  first_n?: number;
  last_n?: number;
}
export interface OrderCheck extends CheckBase {
  type: 'order';
  before: string;
  after: string;
}
export interface TableCheck extends CheckBase {
  type: 'table';
  cell: string;
  up?: string;
  down?: string;
  left?: string;
  right?: string;
  top_heading?: string;
  left_heading?: string;
}
export interface MathCheck extends CheckBase {
  type: 'math';
  math: string;
}
export interface BaselineCheck extends CheckBase {
  type: 'baseline';
  max_length?: number;
}
export type Check = TextCheck | OrderCheck | TableCheck | MathCheck | BaselineCheck;

export interface CheckResult {
  passed: boolean;
  /** Why it failed (empty when it passed). */
  reason: string;
}

// ---------------------------------------------------------------------------------------------
// Text

const REPLACEMENTS: [RegExp, string][] = [
  [/[‘’‚]/g, "'"],
  [/[“”„]/g, '"'],
  [/＿/g, '_'],
  [/[–—‑‒−]/g, '-'],
  [/\u00b5/g, '\u03bc'],
];

export function normaliseText(text: string): string {
  let t = text.replace(/<br\/?>/g, ' ');
  t = t.replace(/\*\*(.*?)\*\*/g, '$1').replace(/__(.*?)__/g, '$1');
  t = t.replace(/<\/?b>/g, '').replace(/<\/?i>/g, '');
  t = t.replace(/(\*|_)(.*?)\1/g, '$2');
  t = t.replace(/\s+/g, ' ');
  t = t.normalize('NFC');
  for (const [from, to] of REPLACEMENTS) t = t.replace(from, to);
  return t;
}

/** rapidfuzz `fuzz.ratio / 100` over code points. */
function ratio(a: CodePoints, b: CodePoints): number {
  const total = a.length + b.length;
  return total === 0 ? 1 : (2 * lcsLength(a, b)) / total;
}

export function similarity(a: string, b: string): number {
  return ratio(codePoints(a), codePoints(b));
}

/**
 * rapidfuzz `fuzz.partial_ratio / 100`: the shorter string against every window of the longer of
 * its length, and the shorter windows at either end.
 */
export function partialRatio(a: string, b: string): number {
  let needle = codePoints(a);
  let hay = codePoints(b);
  if (needle.length > hay.length) [needle, hay] = [hay, needle];
  const n = needle.length;
  const m = hay.length;
  if (n === 0) return m === 0 ? 1 : 0;
  if (b.includes(a) || a.includes(b)) return 1;
  const wanted = new Set(needle);
  let best = 0;
  const consider = (start: number, end: number): void => {
    const window = hay.subarray(start, end);
    const len = window.length;
    // Upper bound of the ratio of a window this long.
    if ((2 * Math.min(n, len)) / (n + len) <= best) return;
    // A full window opening on a character the needle lacks shares no more with it than the
    // window one step to the right (or, at the end, the shorter end window): that one is scored.
    if (len === n && !wanted.has(window[0] as number)) return;
    const r = ratio(needle, window);
    if (r > best) best = r;
  };
  for (let k = 1; k < n; k++) {
    consider(0, k);
    consider(m - k, m);
  }
  for (let start = 0; start + n <= m; start++) consider(start, start + n);
  return best;
}

function textWindow(page: string, check: TextCheck): string {
  const first = check.first_n;
  const last = check.last_n;
  if (first && last) return page.slice(0, first) + page.slice(Math.max(0, page.length - last));
  if (first) return page.slice(0, first);
  if (last) return page.slice(Math.max(0, page.length - last));
  return page;
}

function runText(check: TextCheck, markdown: string): CheckResult {
  const lower = check.case_sensitive === false;
  let query = normaliseText(check.text);
  let page = normaliseText(markdown);
  if (lower) {
    query = query.toLowerCase();
    page = page.toLowerCase();
  }
  page = textWindow(page, check);
  const diffs = check.max_diffs ?? 0;
  if (page.length < query.length - diffs) {
    return check.type === 'present' ? { passed: false, reason: `page too short (${page.length} chars)` } : { passed: true, reason: '' };
  }
  const threshold = 1 - diffs / Math.max(1, query.length);
  const score = partialRatio(query, page);
  if (check.type === 'present') {
    return score >= threshold ? { passed: true, reason: '' } : { passed: false, reason: `best match ${score.toFixed(3)} < ${threshold.toFixed(3)}` };
  }
  return score < threshold ? { passed: true, reason: '' } : { passed: false, reason: `found (match ${score.toFixed(3)})` };
}

// ---------------------------------------------------------------------------------------------
// Order

/** Start offsets (UTF-16) of every occurrence of `pattern` in `text` within Levenshtein distance `k`. */
export function nearMatchStarts(pattern: string, text: string, k: number): number[] {
  if (k === 0) {
    const starts: number[] = [];
    for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) starts.push(at);
    return starts;
  }
  // Semi-global edit distance on the reversed strings: an end in the reversed text is a start.
  const p = [...pattern].reverse().join('');
  const t = [...text].reverse().join('');
  const n = p.length;
  let prev = new Int32Array(n + 1);
  let cur = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) prev[i] = i;
  const starts: number[] = [];
  for (let j = 1; j <= t.length; j++) {
    cur[0] = 0;
    const c = t.charCodeAt(j - 1);
    for (let i = 1; i <= n; i++) {
      const sub = (prev[i - 1] as number) + (p.charCodeAt(i - 1) === c ? 0 : 1);
      cur[i] = Math.min(sub, (prev[i] as number) + 1, (cur[i - 1] as number) + 1);
    }
    if ((cur[n] as number) <= k) starts.push(t.length - j);
    [prev, cur] = [cur, prev];
  }
  return starts.sort((a, b) => a - b);
}

function runOrder(check: OrderCheck, markdown: string): CheckResult {
  const page = normaliseText(markdown);
  const k = check.max_diffs ?? 0;
  const before = nearMatchStarts(normaliseText(check.before), page, k);
  const after = nearMatchStarts(normaliseText(check.after), page, k);
  if (before.length === 0) return { passed: false, reason: 'before text not found' };
  if (after.length === 0) return { passed: false, reason: 'after text not found' };
  return (before[0] as number) < (after[after.length - 1] as number) ? { passed: true, reason: '' } : { passed: false, reason: 'after text comes first' };
}

// ---------------------------------------------------------------------------------------------
// Tables

interface CellSpec {
  text: string;
  rowspan: number;
  colspan: number;
  heading: boolean;
}

export interface TableGrid {
  /** Cell id → text; a cell id is its top-left `row,col`. */
  text: Map<string, string>;
  headings: Set<string>;
  /** Grid position → the id of the cell covering it (undefined: nothing there). */
  occupancy: (string | undefined)[][];
  spans: Map<string, { row: number; col: number; rowspan: number; colspan: number }>;
}

function buildGrid(rows: CellSpec[][]): TableGrid | undefined {
  const text = new Map<string, string>();
  const headings = new Set<string>();
  const spans: TableGrid['spans'] = new Map();
  const occupancy: (string | undefined)[][] = [];
  const put = (r: number, c: number, id: string): void => {
    while (occupancy.length <= r) occupancy.push([]);
    (occupancy[r] as (string | undefined)[])[c] = id;
  };
  rows.forEach((cells, r) => {
    let c = 0;
    for (const cell of cells) {
      while (occupancy[r]?.[c] !== undefined) c++;
      const id = `${r},${c}`;
      text.set(id, cell.text);
      if (cell.heading) headings.add(id);
      spans.set(id, { row: r, col: c, rowspan: cell.rowspan, colspan: cell.colspan });
      for (let dr = 0; dr < cell.rowspan; dr++) for (let dc = 0; dc < cell.colspan; dc++) put(r + dr, c + dc, id);
      c += cell.colspan;
    }
    while (occupancy.length <= r) occupancy.push([]);
  });
  return text.size > 0 ? { text, headings, occupancy, spans } : undefined;
}

type Direction = 'up' | 'down' | 'left' | 'right' | 'top_heading' | 'left_heading';

/** The cells related to `id` in one direction (olmOCR's up/down/left/right and heading relations). */
export function related(grid: TableGrid, id: string, direction: Direction): Set<string> {
  const span = grid.spans.get(id);
  const out = new Set<string>();
  if (!span) return out;
  const height = grid.occupancy.length;
  const width = Math.max(0, ...grid.occupancy.map((r) => r.length));
  const at = (r: number, c: number): string | undefined => grid.occupancy[r]?.[c];
  const vertical = direction === 'up' || direction === 'down' || direction === 'top_heading';
  const lanes = vertical ? range(span.col, span.col + span.colspan) : range(span.row, span.row + span.rowspan);
  for (const lane of lanes) {
    const steps =
      direction === 'up' || direction === 'top_heading'
        ? range(span.row - 1, -1, -1)
        : direction === 'down'
          ? range(span.row + span.rowspan, height)
          : direction === 'right'
            ? range(span.col + span.colspan, width)
            : range(span.col - 1, -1, -1);
    for (const step of steps) {
      const other = vertical ? at(step, lane) : at(lane, step);
      if (other === undefined || other === id) continue;
      if (direction === 'top_heading' || direction === 'left_heading') {
        if (grid.headings.has(other)) out.add(other);
        continue;
      }
      out.add(other);
      break;
    }
  }
  return out;
}

function range(from: number, to: number, step = 1): number[] {
  const out: number[] = [];
  for (let i = from; step > 0 ? i < to : i > to; i += step) out.push(i);
  return out;
}

function isFormattingOnly(line: string, chars: string): boolean {
  return line.length > 0 && [...line].every((ch) => chars.includes(ch));
}

function pipeTableRows(lines: string[]): string[][] {
  const separator = lines.findIndex((line) => isFormattingOnly(line.replaceAll('|', '').trim(), '- :'));
  const rows: string[][] = [];
  lines.forEach((line, i) => {
    if (i === separator) return;
    if (line.trim() && isFormattingOnly(line, '- :|')) return;
    let cells = line.split('|').map((c) => c.trim());
    if (cells[0] === '') cells = cells.slice(1);
    if (cells.length > 0 && cells[cells.length - 1] === '') cells = cells.slice(0, -1);
    if (cells.length > 0) rows.push(cells);
  });
  return rows;
}

export function markdownTables(markdown: string): TableGrid[] {
  const grids: TableGrid[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length >= 2) {
      const rows = pipeTableRows(run);
      const grid = buildGrid(rows.map((cells, r) => cells.map((text, c) => ({ text, rowspan: 1, colspan: 1, heading: r === 0 || c === 0 }))));
      if (grid) grids.push(grid);
    }
    run = [];
  };
  for (const line of markdown.trim().split('\n')) {
    if (line.includes('|')) run.push(line);
    else flush();
  }
  flush();
  return grids;
}

function spanValue(raw: string | null): number {
  const n = raw === null ? 1 : Number.parseInt(raw, 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

export function htmlTables(markdown: string): TableGrid[] {
  if (!/<table\b/i.test(markdown)) return [];
  const { document } = parseHTML(`<!doctype html><html><body>${markdown}</body></html>`);
  const grids: TableGrid[] = [];
  for (const table of document.querySelectorAll('table')) {
    const rows: CellSpec[][] = [];
    for (const tr of table.querySelectorAll('tr')) {
      if (tr.closest('table') !== table) continue;
      const inHead = tr.parentElement?.nodeName === 'THEAD';
      const cells: CellSpec[] = [];
      for (const cell of tr.children) {
        if (cell.nodeName !== 'TD' && cell.nodeName !== 'TH') continue;
        for (const br of cell.querySelectorAll('br')) br.replaceWith('\n');
        cells.push({
          text: (cell.textContent ?? '').trim(),
          rowspan: spanValue(cell.getAttribute('rowspan')),
          colspan: spanValue(cell.getAttribute('colspan')),
          heading: cell.nodeName === 'TH' || inHead,
        });
      }
      rows.push(cells);
    }
    const grid = buildGrid(rows);
    if (grid) grids.push(grid);
  }
  return grids;
}

const RELATIONS: Direction[] = ['up', 'down', 'left', 'right', 'top_heading', 'left_heading'];

function runTable(check: TableCheck, markdown: string): CheckResult {
  const tables = [...markdownTables(markdown), ...htmlTables(markdown)];
  if (tables.length === 0) return { passed: false, reason: 'no table on the page' };
  const diffs = check.max_diffs ?? 0;
  const thresholdFor = (s: string): number => Math.max(0.5, 1 - diffs / Math.max(1, s.length));
  const cell = normaliseText(check.cell);
  let reason = `no cell matching '${cell}'`;
  for (const grid of tables) {
    const texts = new Map([...grid.text].map(([id, t]) => [id, normaliseText(t)]));
    for (const [id, text] of texts) {
      if (similarity(cell, text) < thresholdFor(cell)) continue;
      const failed = RELATIONS.filter((dir) => {
        const wanted = check[dir];
        if (!wanted) return false;
        const expected = normaliseText(wanted);
        return ![...related(grid, id, dir)].some((other) => similarity(expected, texts.get(other) ?? '') >= thresholdFor(expected));
      });
      if (failed.length === 0) return { passed: true, reason: '' };
      reason = `cell found, ${failed.join('/')} not satisfied`;
    }
  }
  return { passed: false, reason };
}

// ---------------------------------------------------------------------------------------------
// Math and baseline

const LATEX_SPANS = [/\\\((.+?)\\\)/gs, /\\\[(.+?)\\\]/gs, /\$\$(.+?)\$\$/gs, /\$(.+?)\$/gs];

function runMath(check: MathCheck, markdown: string): CheckResult {
  const squash = (s: string): string => s.replace(/\s+/g, '');
  const wanted = squash(check.math);
  let rest = markdown;
  for (const pattern of LATEX_SPANS) {
    for (const m of rest.matchAll(pattern)) if (squash(m[1] ?? '') === wanted) return { passed: true, reason: '' };
    rest = rest.replace(pattern, '');
  }
  return { passed: false, reason: 'formula not written as LaTeX' };
}

const DISALLOWED = /[\u4e00-\u9fff\u3040-\u309f\u30a0-\u30ff\u{1f600}-\u{1f64f}\u{1f300}-\u{1f5ff}\u{1f680}-\u{1f6ff}\u{1f1e0}-\u{1f1ff}]/u;

function runBaseline(check: BaselineCheck, markdown: string): CheckResult {
  const alnum = [...markdown].filter((ch) => /[\p{L}\p{N}]/u.test(ch)).length;
  if (check.max_length !== undefined) {
    return alnum <= check.max_length ? { passed: true, reason: '' } : { passed: false, reason: `${alnum} characters on a blank page` };
  }
  if (alnum === 0) return { passed: false, reason: 'no text' };
  if (DISALLOWED.test(markdown)) return { passed: false, reason: 'disallowed characters' };
  return { passed: true, reason: '' };
}

export function runCheck(check: Check, markdown: string): CheckResult {
  switch (check.type) {
    case 'present':
    case 'absent':
      return runText(check, markdown);
    case 'order':
      return runOrder(check, markdown);
    case 'table':
      return runTable(check, markdown);
    case 'math':
      return runMath(check, markdown);
    case 'baseline':
      return runBaseline(check, markdown);
  }
}

/** The checks of a jsonl file (blank lines skipped). */
export function parseChecks(jsonl: string): Check[] {
  return jsonl
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Check);
}

/** A short description of a check for failure lists. */
export function describeCheck(check: Check): string {
  const cut = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}…` : s);
  switch (check.type) {
    case 'present':
    case 'absent':
      return cut(check.text);
    case 'order':
      return `${cut(check.before)} ⟶ ${cut(check.after)}`;
    case 'table': {
      const rel = RELATIONS.filter((d) => check[d]).map((d) => `${d}=${check[d]}`);
      return cut([check.cell, ...rel].join(' '));
    }
    case 'math':
      return cut(check.math);
    case 'baseline':
      return `max_length ${check.max_length ?? '–'}`;
  }
}
