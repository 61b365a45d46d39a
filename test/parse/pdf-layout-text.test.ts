import { describe, expect, it } from 'vitest';
import { pageList, pagesPhrase } from '../../src/parse/readers/pdf/errors.ts';
import { joinLine } from '../../src/parse/readers/pdf/layout/inline.ts';
import { doubleQuotes, expandLigatures } from '../../src/parse/readers/pdf/text-normalise.ts';

describe('pdf layout: text', () => {
  it('undoes hyphenation before a lower-case letter only', () => {
    expect(joinLine('more difficult to com-', 'pile than')).toBe('more difficult to compile than');
    expect(joinLine('the COVID-', '19 pandemic')).toBe('the COVID-19 pandemic');
    expect(joinLine('we call it Trace-', 'Monkey')).toBe('we call it Trace-Monkey');
    expect(joinLine('a dash -', 'then more')).toBe('a dash - then more');
    expect(joinLine('soft\u00AD', 'ware')).toBe('software');
  });

  it('spells out ligatures and Arabic presentation forms but keeps superscripts', () => {
    expect(expandLigatures('\uFB01nd the e\uFB03cient \uFB02ow')).toBe('find the efficient flow');
    expect(expandLigatures('\uFEDF\uFECC\uFEAE\uFE91\uFEF4\uFE94')).toBe('لعربية');
    expect(expandLigatures('x² ½')).toBe('x² ½');
  });

  it('reads two single quotes set together as a double quote', () => {
    expect(doubleQuotes('the term \u2018\u2018corporate social responsibility\u2019\u2019 is in vogue')).toBe('the term \u201Ccorporate social responsibility\u201D is in vogue');
    expect(doubleQuotes('\u2018one\u2019 and \u2018two\u2019')).toBe('\u2018one\u2019 and \u2018two\u2019');
  });
});

describe('page lists in warnings', () => {
  it('names pages and ranges', () => {
    expect(pageList([3])).toBe('3');
    expect(pageList([3, 5])).toBe('3 and 5');
    expect(pageList([1, 2, 3, 4, 7, 9])).toBe('1–4, 7 and 9');
    expect(pageList([1, 2, 5])).toBe('1, 2 and 5');
    expect(pageList(Array.from({ length: 30 }, (_, i) => i * 2 + 1))).toBe('1, 3, 5, 7, 9, 11, 13, 15, 17, 19 and 20 more');
    expect(pagesPhrase([4], 'is blank.', 'are blank.')).toBe('Page 4 is blank.');
    expect(pagesPhrase([4, 5, 6], 'is blank.', 'are blank.')).toBe('Pages 4–6 are blank.');
  });
});
