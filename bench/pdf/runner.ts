/**
 * Runs engines over benchmark documents in THIS process, one at a time (one core), and scores
 * each output against its reference (metrics.ts). Used by bench/pdf.ts and the CI ratchet test.
 *
 * Engines:
 *   folio        `parse()` with formats ['markdown'] and parsers [{type: 'pdf', mode}]
 *   pdfjs-text   raw pdf.js text in stream order (baseline.ts)
 * A ServiceError from folio counts as empty output (score 0 where the metric is defined) and is
 * recorded; anything else is a bug and propagates.
 */
import fs from 'node:fs';
import { isServiceError } from '../../src/errors.ts';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { pdfjsStreamText } from './baseline.ts';
import { pdfPath, readReference } from './corpus.ts';
import { meanScores, scoreDocument, type DocumentScores, type MeanScores } from './metrics.ts';

export type PdfMode = 'fast' | 'auto' | 'ocr';
export type EngineName = 'folio' | 'pdfjs-text';

export interface EngineOutput {
  markdown: string;
  pages: number;
  error?: string;
  warning?: string;
}

export interface DocumentRun {
  id: string;
  markdown: string;
  pages: number;
  /** Wall time of the engine on this document, seconds. */
  seconds: number;
  scores: DocumentScores;
  error?: string;
  warning?: string;
}

export interface EngineRun {
  engine: EngineName;
  docs: DocumentRun[];
  /** Wall time of the whole run (engine + nothing else), seconds. */
  wallSeconds: number;
  /** Time spent scoring, seconds (kept apart so it never counts as the engine's). */
  scoringSeconds: number;
}

export async function folioMarkdown(bytes: Buffer, filename: string, mode: PdfMode): Promise<EngineOutput> {
  const options = parseOptions({ formats: ['markdown'], parsers: [{ type: 'pdf', mode }] });
  try {
    const data = await parse({ bytes, filename }, options);
    return {
      markdown: data.markdown ?? '',
      pages: data.metadata.numPages ?? 1,
      ...(data.warning ? { warning: data.warning } : {}),
    };
  } catch (err) {
    if (isServiceError(err)) return { markdown: '', pages: 1, error: `${err.code}: ${err.message.slice(0, 120)}` };
    throw err;
  }
}

export function engineFunction(engine: EngineName, mode: PdfMode): (bytes: Buffer, filename: string) => Promise<EngineOutput> {
  if (engine === 'folio') return (bytes, filename) => folioMarkdown(bytes, filename, mode);
  return async (bytes) => pdfjsStreamText(bytes);
}

/** A few documents through the engine first, so module loading and JIT warm-up are not timed. */
export async function warmUp(engine: EngineName, mode: PdfMode, ids: string[]): Promise<void> {
  const run = engineFunction(engine, mode);
  for (const id of ids.slice(0, 2)) await run(fs.readFileSync(pdfPath(id)), `${id}.pdf`);
}

export async function runEngine(engine: EngineName, mode: PdfMode, ids: string[], onDoc?: (done: number) => void): Promise<EngineRun> {
  const run = engineFunction(engine, mode);
  const docs: DocumentRun[] = [];
  let wall = 0;
  let scoring = 0;
  for (const id of ids) {
    const bytes = fs.readFileSync(pdfPath(id));
    const started = performance.now();
    const out = await run(bytes, `${id}.pdf`);
    const seconds = (performance.now() - started) / 1000;
    wall += seconds;
    const scoreStart = performance.now();
    const scores = scoreDocument(readReference(id), out.markdown);
    scoring += (performance.now() - scoreStart) / 1000;
    docs.push({
      id,
      markdown: out.markdown,
      pages: Math.max(1, out.pages),
      seconds,
      scores,
      ...(out.error ? { error: out.error } : {}),
      ...(out.warning ? { warning: out.warning } : {}),
    });
    onDoc?.(docs.length);
  }
  return { engine, docs, wallSeconds: wall, scoringSeconds: scoring };
}

export interface EngineSummary extends MeanScores {
  engine: EngineName;
  documents: number;
  /** Seconds per page: median and 95th percentile over documents (time / pages). */
  medianSecondsPerPage: number;
  p95SecondsPerPage: number;
  /** Total wall time / total pages. */
  wallSecondsPerPage: number;
  errors: number;
}

export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
}

export function summarise(run: EngineRun): EngineSummary {
  const perPage = run.docs.map((d) => d.seconds / d.pages);
  const pages = run.docs.reduce((s, d) => s + d.pages, 0);
  return {
    engine: run.engine,
    documents: run.docs.length,
    ...meanScores(run.docs.map((d) => d.scores)),
    medianSecondsPerPage: quantile(perPage, 0.5),
    p95SecondsPerPage: quantile(perPage, 0.95),
    wallSecondsPerPage: pages > 0 ? run.wallSeconds / pages : Number.NaN,
    errors: run.docs.filter((d) => d.error).length,
  };
}
