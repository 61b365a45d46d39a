/**
 * The olmOCR-bench sample (`../shared/corpus/pdf/olmocr/`, see its README.md): its PDFs read by
 * an engine, page by page, and every check of `dataset.jsonl` and `blanks.jsonl` scored on the
 * page it names (olmocr-checks.ts).
 *
 * Pages: folio parses the whole PDF once (formats markdown + html); a one-page PDF is scored on
 * the markdown, a longer one on the markdown the same writer makes of each page's
 * `<section data-page="N">` of the intermediate document (so page furniture found across pages is
 * handled as in a real parse). pdf.js: its text of that page (baseline.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isServiceError } from '../../src/errors.ts';
import { documentFromHtml } from '../../src/parse/document.ts';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { toMarkdown } from '../../src/parse/writers/markdown.ts';
import { CORPUS_DIR } from '../../test/helpers/corpus.ts';
import { pdfjsStreamText } from './baseline.ts';
import { parseChecks, runCheck, type Check, type CheckResult } from './olmocr-checks.ts';
import type { EngineName, PdfMode } from './runner.ts';

export const OLMOCR_DIR = path.join(CORPUS_DIR, 'pdf', 'olmocr');

export function olmocrChecks(): Check[] {
  return [...parseChecks(fs.readFileSync(path.join(OLMOCR_DIR, 'dataset.jsonl'), 'utf8')), ...parseChecks(fs.readFileSync(path.join(OLMOCR_DIR, 'blanks.jsonl'), 'utf8'))];
}

export interface PagedOutput {
  /** Markdown (or text) per page, page 1 first. */
  pages: string[];
  seconds: number;
  error?: string;
}

/** folio's markdown of each page of a PDF (see the file comment). */
export async function folioPages(bytes: Buffer, filename: string, mode: PdfMode): Promise<string[]> {
  const options = parseOptions({ formats: ['markdown', 'html'], parsers: [{ type: 'pdf', mode }] });
  const data = await parse({ bytes, filename }, options);
  const sections = [...documentFromHtml(data.html ?? '').querySelectorAll('section[data-page]')];
  if (sections.length <= 1) return [data.markdown ?? ''];
  const pages: string[] = [];
  for (const section of sections) pages[Number(section.getAttribute('data-page')) - 1] = toMarkdown(section);
  return Array.from(pages, (p) => p ?? '');
}

export async function readPages(engine: EngineName, mode: PdfMode, pdf: string): Promise<PagedOutput> {
  const bytes = fs.readFileSync(path.join(OLMOCR_DIR, 'pdfs', pdf));
  const started = performance.now();
  try {
    const pages = engine === 'folio' ? await folioPages(bytes, path.basename(pdf), mode) : (await pdfjsStreamText(bytes)).pageTexts;
    return { pages, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    if (!isServiceError(err)) throw err;
    return { pages: [], seconds: (performance.now() - started) / 1000, error: `${err.code}: ${err.message.slice(0, 120)}` };
  }
}

export interface ScoredCheck {
  check: Check;
  result: CheckResult;
}

export interface OlmocrRun {
  engine: EngineName;
  scored: ScoredCheck[];
  /** Per PDF: the engine's pages and time. */
  outputs: Map<string, PagedOutput>;
}

/** Every check whose PDF is in `pdfs` (all of them when omitted), one engine. */
export async function runOlmocr(engine: EngineName, mode: PdfMode, checks: Check[]): Promise<OlmocrRun> {
  const outputs = new Map<string, PagedOutput>();
  for (const pdf of new Set(checks.map((c) => c.pdf))) outputs.set(pdf, await readPages(engine, mode, pdf));
  const scored = checks.map((check) => {
    const out = outputs.get(check.pdf) as PagedOutput;
    return { check, result: runCheck(check, out.pages[check.page - 1] ?? '') };
  });
  return { engine, scored, outputs };
}
