/**
 * The development split of opendataloader-bench in the shared corpus
 * (`../shared/corpus/pdf-bench/`: `pdfs/<id>.pdf`, `ground-truth/<id>.md`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from '../../test/helpers/corpus.ts';

export const PDF_BENCH_DIR = path.join(CORPUS_DIR, 'pdf-bench');

/** Every document id (file stem) with both a PDF and a reference, sorted. */
export function benchDocumentIds(): string[] {
  const refs = new Set(
    fs
      .readdirSync(path.join(PDF_BENCH_DIR, 'ground-truth'))
      .filter((f) => /^\d+\.md$/.test(f))
      .map((f) => f.slice(0, -3)),
  );
  return fs
    .readdirSync(path.join(PDF_BENCH_DIR, 'pdfs'))
    .filter((f) => /^\d+\.pdf$/.test(f) && refs.has(f.slice(0, -4)))
    .map((f) => f.slice(0, -4))
    .sort();
}

export function pdfPath(id: string): string {
  return path.join(PDF_BENCH_DIR, 'pdfs', `${id}.pdf`);
}

export function readReference(id: string): string {
  return fs.readFileSync(path.join(PDF_BENCH_DIR, 'ground-truth', `${id}.md`), 'utf8');
}

/** The reference has a table (TEDS is defined) — a `<table` tag, as the README counts them. */
export function hasTable(reference: string): boolean {
  return /<table/i.test(reference);
}

/** The reference has a heading line (MHS is defined). */
export function hasHeading(reference: string): boolean {
  return /^#{1,6}[ \t]/m.test(reference);
}

export type BenchHalf = 'tuning' | 'checking';

/**
 * The generalisation discipline (docs/pdf.md "Tuning and checking halves"): the development split
 * is parted by id into a half that rules may be tuned on and a half that only checks them. The
 * rule: with n the id as a number, the tuning half is where floor(n / 4) is even, the checking
 * half where it is odd — consecutive pages (often from one source document) are dealt to both
 * halves in turns of four, so neither half is one kind of document.
 */
export function benchHalf(id: string): BenchHalf {
  return Math.floor(Number(id) / 4) % 2 === 0 ? 'tuning' : 'checking';
}
