/**
 * The olmOCR-bench check scorer (bench/pdf/olmocr-checks.ts) on small markdown strings, a passing
 * and a failing case for every check type; the fuzzy string functions against plain brute force
 * on seeded random inputs; and one real run of folio on a corpus PDF of the sample.
 */
import { describe, expect, it } from 'vitest';
import { codePoints, lcsLength } from '../../bench/pdf/edit-distance.ts';
import { nearMatchStarts, normaliseText, partialRatio, runCheck, type Check } from '../../bench/pdf/olmocr-checks.ts';
import { olmocrChecks, runOlmocr } from '../../bench/pdf/olmocr-run.ts';
import { mulberry32 } from '../helpers/prng.ts';

const base = { pdf: 'x.pdf', page: 1, id: 't' };
const passes = (check: Check, markdown: string): boolean => runCheck(check, markdown).passed;

describe('normaliseText', () => {
  it('drops bold and italic markers, folds whitespace, quotes and dashes', () => {
    expect(normaliseText('**Bold** and _it_  \n  “quoted” — x−y<br/>z')).toBe('Bold and it "quoted" - x-y z');
  });
});

describe('present and absent', () => {
  it('present: an exact occurrence passes, a different word fails', () => {
    const md = 'The **term** “corporate social responsibility” is in vogue.';
    expect(passes({ ...base, type: 'present', text: 'The term "corporate social responsibility" is in vogue' }, md)).toBe(true);
    expect(passes({ ...base, type: 'present', text: 'The term "corporate social irresponsibility"' }, md)).toBe(false);
  });

  it('present with max_diffs: one changed character passes at 2, fails at 0', () => {
    const md = 'Since the use of bones has, however, become general';
    const text = 'Since the use of bones has, howover, become general';
    expect(passes({ ...base, type: 'present', text, max_diffs: 2 }, md)).toBe(true);
    expect(passes({ ...base, type: 'present', text }, md)).toBe(false);
  });

  it('present: case_sensitive false folds case, true does not', () => {
    expect(passes({ ...base, type: 'present', text: 'Master Bath', case_sensitive: false }, 'MASTER BATH 12x14')).toBe(true);
    expect(passes({ ...base, type: 'present', text: 'Master Bath' }, 'MASTER BATH 12x14')).toBe(false);
  });

  it('present fails on a page shorter than the text', () => {
    expect(passes({ ...base, type: 'present', text: 'a long phrase' }, ' ')).toBe(false);
  });

  it('absent: a running header kept fails, dropped passes', () => {
    const check: Check = { ...base, type: 'absent', text: 'PLOS Neglected Tropical Diseases | www.plosntds.org' };
    expect(passes(check, 'PLOS Neglected Tropical Diseases | www.plosntds.org\n\n# Introduction\n\nText.')).toBe(false);
    expect(passes(check, '# Introduction\n\nText.')).toBe(true);
  });

  it('absent with last_n looks only at the end of the page', () => {
    const check: Check = { ...base, type: 'absent', text: '1', last_n: 20 };
    expect(passes(check, 'Table 1 shows the results of the first experiment.\n\n1')).toBe(false);
    expect(passes(check, 'Table 1 shows the results of the first experiment, without a number.')).toBe(true);
  });
});

describe('order', () => {
  const check: Check = { ...base, type: 'order', before: "Euler's Identity", after: 'Pythagorean Theorem' };

  it('passes when before comes first, fails when after does', () => {
    expect(passes(check, "## Euler’s Identity\n\n...\n\n## Pythagorean Theorem")).toBe(true);
    expect(passes(check, "## Pythagorean Theorem\n\n...\n\n## Euler's Identity")).toBe(false);
  });

  it('fails when one text is missing; max_diffs allows small differences', () => {
    expect(passes(check, "Euler's Identity only")).toBe(false);
    expect(passes({ ...check, max_diffs: 2 }, "Eulers Identity then Pythagorean Theorom")).toBe(true);
    expect(passes(check, "Eulers Identity then Pythagorean Theorom")).toBe(false);
  });
});

describe('table', () => {
  const md = [
    'Before the table.',
    '',
    '| Source | Type | Bytes | Words |',
    '| --- | --- | --- | --- |',
    '| DCLM | Web pages | 21.32T | 3.71T |',
    '| arXiv | Papers | 47.2B | 11.8B |',
    '| Algebraic Stack | Math proofs code | 12.2B | 3.7B |',
    '',
    'After.',
  ].join('\n');

  it('neighbours up/down/left/right pass when adjacent and fail otherwise', () => {
    expect(passes({ ...base, type: 'table', cell: '47.2B', up: '21.32T', down: '12.2B', left: 'Papers', right: '11.8B' }, md)).toBe(true);
    expect(passes({ ...base, type: 'table', cell: '47.2B', up: '3.71T' }, md)).toBe(false);
    expect(passes({ ...base, type: 'table', cell: '47.2B', right: 'Papers' }, md)).toBe(false);
  });

  it('headings: row 0 and column 0 of a pipe table', () => {
    expect(passes({ ...base, type: 'table', cell: '47.2B', top_heading: 'Bytes', left_heading: 'arXiv' }, md)).toBe(true);
    expect(passes({ ...base, type: 'table', cell: '47.2B', top_heading: 'Words' }, md)).toBe(false);
    expect(passes({ ...base, type: 'table', cell: 'Math proofs code', left_heading: 'DCLM' }, md)).toBe(false);
  });

  it('a cell missing from every table, or no table at all, fails', () => {
    expect(passes({ ...base, type: 'table', cell: '99.9B' }, md)).toBe(false);
    expect(passes({ ...base, type: 'table', cell: 'Type' }, 'Source Type Bytes Words\nDCLM Web pages 21.32T')).toBe(false);
  });

  it('HTML tables: th cells are headings, colspan covers the columns below', () => {
    const html =
      '<table><tr><th></th><th colspan="2">Year Ended</th></tr><tr><th>Revenue</th><td>1,136</td><td>1,892</td></tr>' +
      '<tr><th>Research and development</th><td>2,532</td><td>680</td></tr></table>';
    expect(passes({ ...base, type: 'table', cell: '1,892', top_heading: 'Year Ended' }, html)).toBe(true);
    expect(passes({ ...base, type: 'table', cell: '680', up: '1,892', left_heading: 'Research and development' }, html)).toBe(true);
    expect(passes({ ...base, type: 'table', cell: '680', up: '1,136' }, html)).toBe(false);
    expect(passes({ ...base, type: 'table', cell: '2,532', top_heading: 'Revenue' }, html)).toBe(false);
  });
});

describe('math and baseline', () => {
  it('math passes only when the formula is written as LaTeX', () => {
    const check: Check = { ...base, type: 'math', math: 'a^{2}+b^{2}=c^{2}' };
    expect(passes(check, 'The theorem: $a^{2} + b^{2} = c^{2}$.')).toBe(true);
    expect(passes(check, 'The theorem: a2 + b2 = c2.')).toBe(false);
  });

  it('baseline with max_length: a blank page passes, a page of text fails', () => {
    const check: Check = { ...base, type: 'baseline', max_length: 10 };
    expect(passes(check, '\n\n---\n')).toBe(true);
    expect(passes(check, 'Chapter One: a page of text')).toBe(false);
  });
});

describe('fuzzy string functions against brute force', () => {
  const random = mulberry32(16);
  const word = (length: number): string => Array.from({ length }, () => 'abcde '[Math.floor(random() * 6)]).join('');

  function brutePartialRatio(a: string, b: string): number {
    let [needle, hay] = a.length <= b.length ? [a, b] : [b, a];
    if (needle.length === 0) return hay.length === 0 ? 1 : 0;
    const r = (x: string, y: string): number => (2 * lcsLength(codePoints(x), codePoints(y))) / (x.length + y.length);
    let best = 0;
    for (let k = 1; k < needle.length; k++) best = Math.max(best, r(needle, hay.slice(0, k)), r(needle, hay.slice(hay.length - k)));
    for (let s = 0; s + needle.length <= hay.length; s++) best = Math.max(best, r(needle, hay.slice(s, s + needle.length)));
    [needle, hay] = [hay, needle];
    return best;
  }

  function bruteStarts(p: string, t: string, k: number): number[] {
    const lev = (x: string, y: string): number => {
      let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
      for (let i = 1; i <= x.length; i++) {
        const cur = [i];
        for (let j = 1; j <= y.length; j++) cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1));
        prev = cur;
      }
      return prev[y.length] as number;
    };
    const starts: number[] = [];
    for (let s = 0; s < t.length; s++) {
      for (let e = s; e <= t.length; e++) {
        if (lev(p, t.slice(s, e)) <= k) {
          starts.push(s);
          break;
        }
      }
    }
    return starts;
  }

  it('partialRatio equals the best window ratio', () => {
    for (let i = 0; i < 200; i++) {
      const a = word(1 + Math.floor(random() * 8));
      const b = word(Math.floor(random() * 30));
      expect(partialRatio(a, b)).toBeCloseTo(brutePartialRatio(a, b), 10);
    }
  });

  it('nearMatchStarts finds every start of a match within the distance', () => {
    for (let i = 0; i < 150; i++) {
      const p = word(2 + Math.floor(random() * 5));
      const t = word(Math.floor(random() * 20));
      const k = Math.floor(random() * 2);
      // A start where only an empty or fully-deleted prefix matches is a start too; compare the sets.
      expect(nearMatchStarts(p, t, k)).toEqual(bruteStarts(p, t, k));
    }
  });
});

describe('a real run on the sample', () => {
  it('folio (mode fast) passes at least 8 of the 10 checks of olmo2-pg4.pdf, most of them tables', async () => {
    const checks = olmocrChecks().filter((c) => c.pdf === 'olmo2-pg4.pdf');
    expect(checks.length).toBe(10);
    const run = await runOlmocr('folio', 'fast', checks);
    const passed = run.scored.filter((s) => s.result.passed);
    expect(passed.length).toBeGreaterThanOrEqual(8);
    expect(passed.filter((s) => s.check.type === 'table').length).toBeGreaterThanOrEqual(7);
    // The raw pdf.js text has no table at all: the checks can fail.
    const baseline = await runOlmocr('pdfjs-text', 'fast', checks);
    expect(baseline.scored.filter((s) => s.result.passed && s.check.type === 'table').length).toBe(0);
  }, 60_000);
});
