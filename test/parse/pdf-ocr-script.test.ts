/**
 * OCR in a script the configured languages cannot read (src/parse/ocr/script.ts): a Chinese scan
 * read with `eng` is answered with a warning naming the script, the package and the setting; a
 * handwritten English letter, which also reads badly, gets none; a clean page is never checked.
 * Real tesseract and pdftoppm on corpus PDFs (scripts/setup.sh installs them with the osd data).
 */
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { parseOsd, readBadly, scriptWarning, tsvConfidence } from '../../src/parse/ocr/script.ts';
import { readCorpus } from '../helpers/corpus.ts';

const OCR = parseOptions({ parsers: [{ type: 'pdf', mode: 'ocr' }] });

describe('OCR script detection', () => {
  it('warns that a Chinese scan read with eng is likely wrong, naming the package and FOLIO_OCR_LANGUAGES', async () => {
    const result = await parse({ bytes: readCorpus('pdf', 'opendataloader-pdf', 'chinese_scan.pdf'), filename: 'chinese_scan.pdf' }, OCR);
    expect(result.warning).toMatch(/page 1 looks set in Chinese \(Han\) script, which eng does not read: install tesseract-ocr-chi-sim and add chi_sim to FOLIO_OCR_LANGUAGES/);
  });

  it('says nothing of a handwritten English letter, which reads badly but is Latin (OSD is unsure of it)', async () => {
    const result = await parse({ bytes: readCorpus('pdf', 'olmocr', 'pdfs', 'lincoln_letter.pdf'), filename: 'lincoln_letter.pdf' }, OCR);
    expect(result.warning ?? '').not.toMatch(/script/);
  });

  it('reads the OSD report and the TSV confidences; a covered script or Latin is no warning', () => {
    expect(parseOsd('Page number: 0\nOrientation in degrees: 0\nScript: Han\nScript confidence: 1.10\n')).toEqual({ script: 'Han', confidence: 1.1 });
    expect(parseOsd('Too few characters. Skipping this page\n')).toBeUndefined();
    const row = (conf: number, text: string) => `5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t${conf}\t${text}`;
    const tsv = ['level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext', ...[20, 40, 50, 30, 45].map((c, i) => row(c, `w${i}`))].join('\n');
    expect(tsvConfidence(tsv)).toEqual({ words: 5, mean: 37 });
    expect(readBadly(tsv)).toBe(true);
    expect(readBadly(tsv.replace(/\t(20|40|50|30|45)\t/g, '\t95\t'))).toBe(false);
    const han = new Map([[2, { script: 'Han', confidence: 3 }]]);
    expect(scriptWarning(han, 'eng+chi_sim')).toBeUndefined();
    expect(scriptWarning(new Map([[1, { script: 'Latin', confidence: 9 }]]), 'eng')).toBeUndefined();
    expect(scriptWarning(new Map([[3, { script: 'Cyrillic', confidence: 4 }], [1, { script: 'Cyrillic', confidence: 2 }]]), 'eng')).toBe(
      'OCR text is likely wrong: pages 1, 3 look set in Cyrillic script, which eng does not read: install tesseract-ocr-rus and add rus to FOLIO_OCR_LANGUAGES.',
    );
  });
});
