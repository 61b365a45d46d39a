/**
 * Row labels wrapped over lines in a table whose rows are text lines (aligned.ts,
 * labelContinues): a first-column line in lower case continues the label above it when it or
 * the row so far holds the label alone; a line of values under a row that has its values starts
 * a row, whatever its case. On olmOCR's olmo2-pg4 (OLMo 2's pretraining mix, booktabs).
 */
import { describe, expect, it } from 'vitest';
import { findTables, type PdfTable } from '../../src/parse/readers/pdf/tables/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { firstPageModel, rowTexts } from './pdf-table-fixtures.ts';

async function tables(): Promise<PdfTable[]> {
  return findTables(await firstPageModel(readCorpus('pdf', 'olmocr', 'pdfs', 'olmo2-pg4.pdf')));
}

describe('PDF tables: row labels wrapped over lines', () => {
  it('joins a label centred on its values ("StarCoder / filtered version / from OLMoE Mix") and one set on its first line, keeps "arXiv" a row', async () => {
    const [t] = await tables();
    if (!t) throw new Error('no table');
    const rows = rowTexts(t);
    const byLabel = (label: string): string[] | undefined => rows.find((r) => r[0] === label);
    expect(byLabel('StarCoder filtered version from OLMoE Mix')).toEqual(['StarCoder filtered version from OLMoE Mix', 'Code', '83.0B', '70.0B', '459B', '78.7M']);
    expect(byLabel('peS2o from Dolma 1.7')).toEqual(['peS2o from Dolma 1.7', 'Academic papers', '58.6B', '51.1B', '413B', '38.8M']);
    expect(byLabel('arXiv')).toEqual(['arXiv', 'STEM papers', '20.8B', '19.3B', '77.2B', '3.95M']);
    expect(byLabel('Wikipedia & Wikibooks from Dolma 1.7')?.[1]).toBe('Encyclopedic');
    // No row holds a label alone any more.
    expect(rows.filter((r) => r[0] !== '' && r.slice(1).every((c) => c === ''))).toEqual([]);
  });
});
