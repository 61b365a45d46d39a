/**
 * The opendataloader-bench metrics (bench/pdf/metrics.ts) on small hand-made documents whose
 * scores can be worked out by hand, and the string/tree distances against plain dynamic
 * programmes on seeded random inputs.
 */
import { describe, expect, it } from 'vitest';
import { codePoints, indelSimilarity, lcsLength, levenshtein } from '../../bench/pdf/edit-distance.ts';
import { markdownTablesToHtml } from '../../bench/pdf/markdown-tables.ts';
import { headingSimilarity, readingOrder, scoreDocument, tableSimilarity } from '../../bench/pdf/metrics.ts';
import { treeEditDistance, type TreeNode } from '../../bench/pdf/tree-edit-distance.ts';
import { mulberry32 } from '../helpers/prng.ts';

function dpLevenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[y.length] as number;
}

function dpLcs(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    const cur = [0];
    for (let j = 1; j <= y.length; j++) cur[j] = x[i - 1] === y[j - 1] ? (prev[j - 1] as number) + 1 : Math.max(prev[j] as number, cur[j - 1] as number);
    prev = cur;
  }
  return prev[y.length] as number;
}

describe('bit-parallel string distances', () => {
  it('agree with the dynamic programmes on random strings across word boundaries', () => {
    const random = mulberry32(20261123);
    const alphabet = ['a', 'b', 'c', 'd', 'é', '𝔸', ' '];
    const word = (n: number, k: number): string => Array.from({ length: n }, () => alphabet[Math.floor(random() * k)] as string).join('');
    for (let t = 0; t < 400; t++) {
      const a = word(Math.floor(random() * 140), 1 + Math.floor(random() * alphabet.length));
      const b = word(Math.floor(random() * 140), 1 + Math.floor(random() * alphabet.length));
      expect(levenshtein(codePoints(a), codePoints(b)), `${a} / ${b}`).toBe(dpLevenshtein(a, b));
      expect(lcsLength(codePoints(a), codePoints(b)), `${a} / ${b}`).toBe(dpLcs(a, b));
    }
  });

  it('count a character outside the BMP once, as Python does', () => {
    expect(codePoints('a𝔸b').length).toBe(3);
    expect(levenshtein(codePoints('𝔸'), codePoints('B'))).toBe(1);
  });

  it('score two 30,000-character pages in well under a second', () => {
    const random = mulberry32(7);
    const page = (): string => Array.from({ length: 30_000 }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
    const a = page();
    const b = page();
    const started = performance.now();
    indelSimilarity(a, b);
    levenshtein(codePoints(a), codePoints(b));
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe('tree edit distance (Zhang–Shasha)', () => {
  interface Labelled extends TreeNode {
    label: string;
    children: Labelled[];
  }
  const n = (label: string, ...children: Labelled[]): Labelled => ({ label, children });
  const unit = (a: Labelled, b: Labelled): number => (a.label === b.label ? 0 : 1);

  it('gives the textbook distance of Zhang & Shasha (1989), figure 1: 2', () => {
    const t1 = n('f', n('d', n('a'), n('c', n('b'))), n('e'));
    const t2 = n('f', n('c', n('d', n('a'), n('b'))), n('e'));
    expect(treeEditDistance(t1, t2, unit)).toBe(2);
  });

  it('is 0 for equal trees, the node count against a single different node plus one', () => {
    const t = n('a', n('b', n('c')), n('d'));
    expect(treeEditDistance(t, t, unit)).toBe(0);
    expect(treeEditDistance(t, n('x'), unit)).toBe(4); // rename the root, delete three nodes
  });
});

describe('NID / NID-S', () => {
  it('is 1 for identical texts and ignores whitespace differences', () => {
    expect(readingOrder('Cell 1\nCell 2\tCell 3', 'Cell 1   Cell 2  Cell 3')).toEqual({ nid: 1, nidS: 1 });
  });

  it('is 1 - indel / total length: "abcd" vs "abxd" = 1 - 2/8', () => {
    expect(readingOrder('abcd', 'abxd').nid).toBeCloseTo(0.75, 12);
  });

  it('is 0 for an empty prediction and null for an empty reference', () => {
    expect(readingOrder('Some text', '')).toEqual({ nid: 0, nidS: 0 });
    expect(readingOrder(' \n ', 'anything')).toEqual({ nid: null, nidS: null });
  });

  it('counts markdown emphasis markers as characters, as the published evaluation does', () => {
    // "ab" vs "**ab**": LCS 2, indel 4, total 8.
    expect(readingOrder('ab', '**ab**').nid).toBeCloseTo(0.5, 12);
  });

  it('NID-S drops tables, so only the running text counts', () => {
    const ref = 'Intro\n<table><tr><td>Table data</td></tr></table>\nOutro';
    const pred = 'Intro\n| A | B |\n| --- | --- |\n| X | Y |\nOutro';
    const scores = readingOrder(ref, pred);
    expect(scores.nid).toBeLessThan(1);
    expect(scores.nidS).toBe(1);
  });
});

describe('markdown tables → HTML (the evaluator\'s converter)', () => {
  it('converts a pipe table with its header as th, escaping cell text', () => {
    expect(markdownTablesToHtml('x\n| A | B |\n|---|:-:|\n| 1 | a&b |\ny')).toBe('x\n<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>a&amp;b</td></tr></table>\ny');
  });

  it('replaces an all-empty header with the first row and spreads a 3-cell row over a wider table', () => {
    const md = '|  |  |  |  |\n| --- | --- | --- | --- |\n| A | Span | Z |\n| 1 | 2 | 3 | 4 |\n';
    expect(markdownTablesToHtml(md)).toBe('<table><tr><th>A</th><th>Span</th><th>Span</th><th>Z</th></tr><tr><td>1</td><td>2</td><td>3</td><td>4</td></tr></table>\n');
  });
});

describe('TEDS / TEDS-S', () => {
  const table = (a: string, b: string): string => `<table><tr><td>${a}</td><td>${b}</td></tr></table>`;

  it('is 1 for identical tables and null when the reference has none', () => {
    expect(tableSimilarity(table('abc', 'x'), table('abc', 'x'))).toEqual({ teds: 1, tedsS: 1 });
    expect(tableSimilarity('no table', table('a', 'b'))).toEqual({ teds: null, tedsS: null });
  });

  it('is 0 when the prediction has no table', () => {
    expect(tableSimilarity(table('a', 'b'), 'a b')).toEqual({ teds: 0, tedsS: 0 });
  });

  it('one changed cell: 1 - (1/3) / 4 nodes; structure unchanged', () => {
    // table, tr, td, td = 4 nodes; relabel "abc" → "abd" costs Levenshtein 1 / length 3.
    const scores = tableSimilarity(table('abc', 'x'), table('abd', 'x'));
    expect(scores.teds).toBeCloseTo(1 - 1 / 3 / 4, 12);
    expect(scores.tedsS).toBe(1);
  });

  it('a different colspan costs a whole relabel in both scores', () => {
    const ref = '<table><tr><td colspan="2">a</td></tr></table>';
    const pred = '<table><tr><td>a</td></tr></table>';
    expect(tableSimilarity(ref, pred)).toEqual({ teds: 1 - 1 / 3, tedsS: 1 - 1 / 3 });
  });

  it('a pipe table equals the equivalent HTML table (th counts as td, thead/tbody dropped)', () => {
    const html = '<table><thead><tr><th>Col1</th><th>Col2</th></tr></thead><tbody><tr><td>A</td><td>B</td></tr></tbody></table>';
    expect(tableSimilarity(html, '| Col1 | Col2 |\n| --- | --- |\n| A | B |')).toEqual({ teds: 1, tedsS: 1 });
  });

  it('scores a page\'s tables as one forest: a missing second table costs its nodes', () => {
    // Reference: two tables of 3 nodes (table, tr, td) each; the prediction has the first only.
    const ref = `${'<table><tr><td>a</td></tr></table>'}\n\ntext\n\n${'<table><tr><td>b</td></tr></table>'}`;
    expect(tableSimilarity(ref, '<table><tr><td>a</td></tr></table>')).toEqual({ teds: 0.5, tedsS: 0.5 });
  });

  it('ignores whitespace inside cells', () => {
    const ref = '<table><tr><td>content is here</td></tr></table>';
    const pred = '<table>\n <tr><td>\n content is \n here </td>\n</tr></table>';
    expect(tableSimilarity(ref, pred)).toEqual({ teds: 1, tedsS: 1 });
  });

  it('treats a <br> in a cell as the evaluator does: a counted node, "<br>" → space, "</br>" left', () => {
    // Cell "content<br></br>is here" → "content </br>is here" (20 chars) vs "content is here": 5 / 20;
    // nodes: table, tr, td, br = 4 in the prediction.
    const ref = '<table><tr><td>content is here</td></tr></table>';
    const pred = '<table><tr><td>content<br>is here</td></tr></table>';
    expect(tableSimilarity(ref, pred).teds).toBeCloseTo(1 - 5 / 20 / 4, 12);
  });
});

describe('MHS / MHS-S', () => {
  it('is 1 for identical documents whatever the heading levels', () => {
    expect(headingSimilarity('# Title\nDetails\n## Sub\nMore', '### Title\nDetails\n# Sub\nMore')).toEqual({ mhs: 1, mhsS: 1 });
  });

  it('is null without a reference heading and 0 when the prediction has none', () => {
    expect(headingSimilarity('Just text', '# Heading')).toEqual({ mhs: null, mhsS: null });
    expect(headingSimilarity('# Title\nSome content', 'Title\nSome content')).toEqual({ mhs: 0, mhsS: 0 });
  });

  it('a missing heading: deleting it and its section, merging the text, over max(nodes)', () => {
    // Reference: document → [A → [x], B → [y]] (5 nodes); prediction: document → [A → ["x y"]] (3).
    // Delete B and "y" (2) + relabel "x" → "x y" (Levenshtein 2 / 3).
    const scores = headingSimilarity('# A\nx\n# B\ny', '# A\nx\ny');
    expect(scores.mhs).toBeCloseTo(1 - (2 + 2 / 3) / 5, 12);
    expect(scores.mhsS).toBeCloseTo(1 - 2 / 5, 12);
  });
});

describe('scoreDocument', () => {
  const reference = '# Report\n\nFirst paragraph of the page.\n\n<table><tr><td>1</td><td>2</td></tr></table>\n\n- a list item\n';

  it('gives 1 everywhere for the reference against itself', () => {
    expect(scoreDocument(reference, reference)).toEqual({ nid: 1, nidS: 1, teds: 1, tedsS: 1, mhs: 1, mhsS: 1, overall: 1 });
  });

  it('gives 0 everywhere defined for an empty prediction', () => {
    expect(scoreDocument(reference, '')).toEqual({ nid: 0, nidS: 0, teds: 0, tedsS: 0, mhs: 0, mhsS: 0, overall: 0 });
  });

  it('Overall is the mean of the defined NID, TEDS and MHS', () => {
    const s = scoreDocument('Plain text only', 'Plain text only!');
    expect(s.teds).toBeNull();
    expect(s.mhs).toBeNull();
    expect(s.overall).toBe(s.nid);
    const t = scoreDocument('# H\ntext\n<table><tr><td>x</td></tr></table>', '# H\ntext');
    expect(t.overall).toBeCloseTo(((t.nid as number) + 0 + (t.mhs as number)) / 3, 12);
  });
});
