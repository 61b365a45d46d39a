/**
 * The shared corpus lives beside the checkout (`../shared/corpus`); tests read it in place and
 * never copy documents into the repo. FOLIO_CORPUS_DIR overrides the location.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export const CORPUS_DIR = path.resolve(process.env.FOLIO_CORPUS_DIR ?? path.join(here, '..', '..', '..', 'shared', 'corpus'));

export function corpusPath(...parts: string[]): string {
  return path.join(CORPUS_DIR, ...parts);
}

export function readCorpus(...parts: string[]): Buffer {
  return fs.readFileSync(corpusPath(...parts));
}

/** Files directly under a corpus folder whose names match. */
export function corpusFiles(folder: string, pattern: RegExp): string[] {
  return fs
    .readdirSync(corpusPath(folder))
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => path.join(folder, name));
}
