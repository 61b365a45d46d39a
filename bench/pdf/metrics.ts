/**
 * opendataloader-bench's per-document scores (../shared/corpus/pdf-bench/README.md "Metrics",
 * ported from the benchmark's src/evaluator_reading_order.py, evaluator_table.py,
 * evaluator_heading_level.py, converter_markdown_table.py and evaluator.py). Every score is in
 * [0, 1] or null when the reference gives the metric nothing to measure.
 *
 *   NID   1 - indel(ref, pred) / (len(ref) + len(pred)) over characters, after pipe tables →
 *         HTML and whitespace collapsed. null if the normalised reference is empty. (A later
 *         revision of the evaluator also strips emphasis markers first; the published figures,
 *         and the benchmark README's definition, do not: `**bold**` costs its four asterisks.)
 *   NID-S the same after replacing every `<table…>…</table>` with a space.
 *   TEDS  tree edit distance of the page's tables as one forest (html-table.ts), relabelling a
 *         td with the same spans = Levenshtein / longer length of the normalised cell texts,
 *         anything else with another tag/spans = 1; `1 - distance / max(nodes)`. null if the
 *         reference has no table, 0 if the prediction has none.
 *   TEDS-S the same with cell text ignored.
 *   MHS   a tree: root → one node per heading line (`#`…`######` + space; level ignored) and,
 *         under the nearest heading (under the root before the first), one content node per run
 *         of non-empty lines; relabel = Levenshtein / longer length of the texts, 1 between a
 *         heading and content; `1 - distance / max(nodes)`, clamped to [0, 1]. null if the
 *         reference has no heading, 0 if the prediction has none.
 *   MHS-S the same with text ignored.
 *   Overall the mean of NID, TEDS and MHS where defined.
 */

import { codePoints, indelSimilarity, levenshtein } from './edit-distance.ts';
import { extractTables, tableForest, unescapeHtml, type TableNode } from './html-table.ts';
import { markdownTablesToHtml, splitLines } from './markdown-tables.ts';
import { countNodes, treeEditDistance, type TreeNode } from './tree-edit-distance.ts';

export interface DocumentScores {
  nid: number | null;
  nidS: number | null;
  teds: number | null;
  tedsS: number | null;
  mhs: number | null;
  mhsS: number | null;
  overall: number | null;
}

export type MetricName = keyof DocumentScores;
export const METRICS: MetricName[] = ['nid', 'nidS', 'teds', 'tedsS', 'mhs', 'mhsS', 'overall'];

/** Python `re.sub(r"\s+", " ", s).strip()`. */
function collapseWhitespace(text: string): string {
  return text.replace(/[\s\x1c-\x1f\x85]+/g, ' ').replace(/^ | $/g, '');
}

const HTML_TABLE = /<table[^>]*?>[\s\S]*?<\/table>/gi;

function readingOrderText(markdownWithHtml: string): string {
  return collapseWhitespace(markdownWithHtml);
}

/** NID and NID-S. */
export function readingOrder(reference: string, prediction: string): { nid: number | null; nidS: number | null } {
  const ref = markdownTablesToHtml(reference);
  const refText = readingOrderText(ref);
  if (!refText) return { nid: null, nidS: null };
  const pred = markdownTablesToHtml(prediction);
  return {
    nid: indelSimilarity(refText, readingOrderText(pred)),
    nidS: indelSimilarity(readingOrderText(ref.replace(HTML_TABLE, ' ')), readingOrderText(pred.replace(HTML_TABLE, ' '))),
  };
}

/** The table evaluator's `_normalize` of a cell's content. */
function normaliseCell(content: string): string {
  return collapseWhitespace(unescapeHtml(content).replace(/<br\s*\/?>/g, '\n'));
}

function tableRename(withText: boolean): (a: TableNode, b: TableNode) => number {
  return (a, b) => {
    if (a.tag !== b.tag || a.colspan !== b.colspan || a.rowspan !== b.rowspan) return 1;
    if (!withText || a.tag !== 'td') return 0;
    const x = normaliseCell(a.content ?? '');
    const y = normaliseCell(b.content ?? '');
    if (!x && !y) return 0;
    const cx = codePoints(x);
    const cy = codePoints(y);
    return levenshtein(cx, cy) / Math.max(cx.length, cy.length);
  };
}

/** TEDS and TEDS-S. */
export function tableSimilarity(reference: string, prediction: string): { teds: number | null; tedsS: number | null } {
  const refTables = extractTables(markdownTablesToHtml(reference));
  if (refTables.length === 0) return { teds: null, tedsS: null };
  const predTables = extractTables(markdownTablesToHtml(prediction));
  if (predTables.length === 0) return { teds: 0, tedsS: 0 };
  const ref = tableForest(refTables);
  const pred = tableForest(predTables);
  const nodes = Math.max(ref.nodeCount, pred.nodeCount);
  if (nodes === 0) return { teds: 0, tedsS: 0 };
  return {
    teds: 1 - treeEditDistance(pred.tree, ref.tree, tableRename(true)) / nodes,
    tedsS: 1 - treeEditDistance(pred.tree, ref.tree, tableRename(false)) / nodes,
  };
}

interface HeadingNode extends TreeNode {
  tag: 'document' | 'heading' | 'content';
  text: string;
  children: HeadingNode[];
}

const HEADING_LINE = /^(#{1,6})[\s\x1c-\x1f\x85]+(.*)$/;

/** The heading evaluator's `_parse_markdown_structure`. */
export function headingTree(markdownWithHtml: string): HeadingNode {
  const root: HeadingNode = { tag: 'document', text: '', children: [] };
  let container = root;
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    const text = collapseWhitespace(pending.join(' '));
    if (text) container.children.push({ tag: 'content', text, children: [] });
    pending = [];
  };
  for (const line of splitLines(markdownWithHtml)) {
    const m = HEADING_LINE.exec(line);
    if (m) {
      flush();
      const heading: HeadingNode = { tag: 'heading', text: collapseWhitespace(m[2] as string), children: [] };
      root.children.push(heading);
      container = heading;
      continue;
    }
    const text = collapseWhitespace(line);
    if (text) pending.push(text);
  }
  flush();
  return root;
}

function headingRename(withText: boolean): (a: HeadingNode, b: HeadingNode) => number {
  return (a, b) => {
    if (a.tag !== b.tag) return 1;
    if (!withText || (!a.text && !b.text)) return 0;
    const x = codePoints(a.text);
    const y = codePoints(b.text);
    return levenshtein(x, y) / Math.max(x.length, y.length, 1);
  };
}

const clamp01 = (v: number): number => Math.max(0, Math.min(1, v));

/** MHS and MHS-S. */
export function headingSimilarity(reference: string, prediction: string): { mhs: number | null; mhsS: number | null } {
  const ref = headingTree(markdownTablesToHtml(reference));
  if (!ref.children.some((c) => c.tag === 'heading')) return { mhs: null, mhsS: null };
  const pred = headingTree(markdownTablesToHtml(prediction));
  if (!pred.children.some((c) => c.tag === 'heading')) return { mhs: 0, mhsS: 0 };
  const nodes = Math.max(countNodes(ref), countNodes(pred), 1);
  return {
    mhs: clamp01(1 - treeEditDistance(ref, pred, headingRename(true)) / nodes),
    mhsS: clamp01(1 - treeEditDistance(ref, pred, headingRename(false)) / nodes),
  };
}

/** Every score of one document: reference markdown vs predicted markdown. */
export function scoreDocument(reference: string, prediction: string): DocumentScores {
  const { nid, nidS } = readingOrder(reference, prediction);
  const { teds, tedsS } = tableSimilarity(reference, prediction);
  const { mhs, mhsS } = headingSimilarity(reference, prediction);
  const parts = [nid, teds, mhs].filter((v): v is number => v !== null);
  const overall = parts.length > 0 ? parts.reduce((s, v) => s + v, 0) / parts.length : null;
  return { nid, nidS, teds, tedsS, mhs, mhsS, overall };
}

export interface MeanScores {
  /** Mean over the documents where the metric is defined; null when none is. */
  mean: Record<MetricName, number | null>;
  /** Documents the mean is over. */
  count: Record<MetricName, number>;
}

/** The benchmark's `*_mean`: each metric averaged over the documents where it is defined. */
export function meanScores(docs: DocumentScores[]): MeanScores {
  const mean = {} as Record<MetricName, number | null>;
  const count = {} as Record<MetricName, number>;
  for (const metric of METRICS) {
    const values = docs.map((d) => d[metric]).filter((v): v is number => v !== null);
    count[metric] = values.length;
    mean[metric] = values.length > 0 ? values.reduce((s, v) => s + v, 0) / values.length : null;
  }
  return { mean, count };
}
