/**
 * The measuring sticks of bench/office.ts: if they are wrong, every figure it prints is wrong.
 * The bit-parallel LCS is checked against the textbook O(n·m) table on random sequences (small
 * alphabets make many ties and long carries across 32-bit words), the normalisation on markdown
 * that pandoc's plain text writes differently, and the structure counts on real GFM constructs.
 */
import { describe, expect, it } from 'vitest';
import { lcsLength, orderedRecall } from '../../bench/office/lcs.ts';
import { normalisedWords } from '../../bench/office/normalise.ts';
import { linearisedTables, parseCsv } from '../../bench/office/reference.ts';
import { countStructure } from '../../bench/office/structure.ts';

function textbookLcs(a: string[], b: string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? (prev[j - 1] as number) + 1 : Math.max(prev[j] as number, cur[j - 1] as number);
    }
    prev = cur;
  }
  return prev[b.length] as number;
}

/** A small deterministic PRNG (mulberry32) so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('bench/office LCS', () => {
  it('matches the textbook table on 500 random pairs, across 32-bit word boundaries', () => {
    const rnd = random(4);
    for (let t = 0; t < 500; t++) {
      const alphabet = 1 + Math.floor(rnd() * 5);
      const gen = (): string[] => Array.from({ length: Math.floor(rnd() * 150) }, () => `w${Math.floor(rnd() * alphabet)}`);
      const a = gen();
      const b = gen();
      expect(lcsLength(a, b), `${a.join(' ')} / ${b.join(' ')}`).toBe(textbookLcs(a, b));
    }
  });

  it('counts order: reversed text keeps one word, recall of an empty reference is 1', () => {
    const words = ['alpha', 'beta', 'gamma', 'delta'];
    expect(orderedRecall(words, [...words].reverse())).toBe(0.25);
    expect(orderedRecall(words, ['zeta', ...words, 'eta'])).toBe(1);
    expect(orderedRecall([], ['x'])).toBe(1);
    expect(orderedRecall(words, [])).toBe(0);
  });

  it('handles 50 000-word documents in well under a second', () => {
    const rnd = random(7);
    const a = Array.from({ length: 50_000 }, () => `w${Math.floor(rnd() * 2000)}`);
    const b = a.filter(() => rnd() > 0.1).reverse();
    const started = performance.now();
    lcsLength(a, b);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('bench/office normalisation', () => {
  it('gives the same words for markdown and for plain text', () => {
    const markdown = '## Café **bold**_x_ [a link](https://example.com/x) foo\\_bar | cell | don’t';
    expect(normalisedWords(markdown)).toEqual(['café', 'boldx', 'a', 'link', 'httpsexamplecomx', 'foobar', 'cell', 'dont']);
    expect(normalisedWords('Café boldx a link foo_bar cell don’t')).toEqual(['café', 'boldx', 'a', 'link', 'foobar', 'cell', 'dont']);
    expect(normalisedWords('ﬁle Ｆｕｌｌ')).toEqual(['file', 'full']); // NFKC
    expect(normalisedWords('optional\u00adhyphen')).toEqual(['optionalhyphen']);
    expect(normalisedWords('ゾルゲと尾崎')).toEqual(['ゾ', 'ル', 'ゲ', 'と', '尾', '崎']);
  });

  it('drops leading list markers, which pandoc and folio number differently', () => {
    expect(normalisedWords('1.  0th\n    2.  1st\n- - 3. deep\n  a. alpha\n  iv. four\n• dot')).toEqual(['0th', '1st', 'deep', 'alpha', 'four', 'dot']);
    expect(normalisedWords('1.5 million in 2019.')).toEqual(['15', 'million', 'in', '2019']);
    expect(normalisedWords('Ouch\\[1\\].[^2]\n\n1. Note')).toEqual(normalisedWords('Ouch[1].[2]\n\n[1] Note'));
  });
});

describe('bench/office equations', () => {
  it('compares TeX symbol by symbol, whatever the spacing, bracing and layout commands', () => {
    // folio's OMML → TeX and pandoc's plain+tex_math_dollars on the same equations (markitdown-equations.docx, docling-equations.docx).
    const folio = 'For $m=1$, $$\n\\sin\\theta=\\frac{(1)\\left(550\\times{10}^{-6}\\text{ }\\mathrm{mm}\\right)}{2.5}\n$$ rad $A=\\pi r^{2}$';
    const pandoc = 'For $m = 1$, $$sin\\theta = \\frac{(1)\\left( 550 \\times 10^{- 6}\\text{\\ }mm \\right)}{2.5}$$ rad $$\\begin{matrix}\nA = \\pi r^{2} \\\\\n\\end{matrix}$$';
    expect(normalisedWords(pandoc)).toEqual(['for', 'm', '1', 'sin', 'theta', '1', '550', 'times', '10', '6', 'mm', '2', '5', 'rad', 'a', 'pi', 'r', '2']);
    expect(normalisedWords(folio)).toEqual(normalisedWords(pandoc));
  });

  it('leaves dollar amounts and escaped dollars as words', () => {
    expect(normalisedWords('It costs $5 and \\$6, not $ 7 $.')).toEqual(['it', 'costs', '5', 'and', '6', 'not', '7']);
    expect(normalisedWords('pay $10 or $20 today')).toEqual(['pay', '10', 'or', '20', 'today']);
  });
});

describe('bench/office reference tables', () => {
  const str = (text: string): unknown[] => text.split(' ').flatMap((w, i) => (i === 0 ? [{ t: 'Str', c: w }] : [{ t: 'Space' }, { t: 'Str', c: w }]));
  const para = (text: string): unknown => ({ t: 'Para', c: str(text) });
  const cell = (...blocks: unknown[]): unknown => [['', [], []], { t: 'AlignDefault' }, 1, 1, blocks];
  const row = (...cells: unknown[]): unknown => [['', [], []], cells];
  const table = (head: unknown[], body: unknown[]): unknown => ({
    t: 'Table',
    c: [['', [], []], [null, [para('Caption')]], [], [['', [], []], head], [[['', [], []], 0, [], body]], [['', [], []], []]],
  });

  it('turns a table into its caption and cells, row by row, nested tables too (pandoc-types 1.22 JSON)', () => {
    const nested = table([row(cell(para('x')), cell(para('y')))], []);
    const doc = { 'pandoc-api-version': [1, 22], meta: {}, blocks: [table([row(cell(para('A')), cell(para('B')))], [row(cell(para('a1'), para('a2')), cell(para('b1'), nested))])] };
    const out = linearisedTables(doc as never) as { blocks: { t: string; c: [unknown, { t: string; c: unknown }[]] }[] };
    expect(out.blocks).toHaveLength(1);
    const [div] = out.blocks;
    expect(div?.t).toBe('Div');
    const texts = JSON.stringify(div).match(/"Str","c":"[^"]+"/g)?.map((m) => m.slice(11, -1));
    expect(texts).toEqual(['Caption', 'A', 'B', 'a1', 'a2', 'b1', 'Caption', 'x', 'y']);
    expect(JSON.stringify(out)).not.toContain('"Table"');
  });
});

describe('bench/office structure counts', () => {
  it('counts pipe and HTML tables, ATX/setext headings and list items, not inside code fences', () => {
    const md = [
      '# Title',
      '',
      'Sub',
      '---',
      '',
      '| a | b |',
      '|---|:-:|',
      '| 1 | 2 |',
      '',
      '<table><tr><td>x</td></tr></table>',
      '',
      '- one',
      '  1. nested',
      '* two',
      '',
      '***',
      '',
      '```',
      '# not a heading',
      '- not an item',
      '```',
    ].join('\n');
    expect(countStructure(md)).toEqual({ tables: 2, headings: 2, listItems: 3 });
  });

  it('parses RFC 4180 CSV with quotes, doubled quotes and line breaks in cells', () => {
    expect(parseCsv('a,"b, c","say ""hi"""\r\n"multi\nline",,x\n')).toEqual([
      ['a', 'b, c', 'say "hi"'],
      ['multi\nline', '', 'x'],
    ]);
  });
});
