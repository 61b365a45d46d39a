/**
 * The cache of an outside check's converted documents (bench:printed, bench:office-pdf): one JSON
 * entry per document beside its PDF, read back only while its version is the check's current one
 * (a change to the printing or the truth bumps it, and the documents are converted again).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface CachedDocument {
  version: number;
  /** The source document, relative to the corpus folder. */
  source: string;
  pages: number;
  /** Why the document could not be converted (then it has no truth). */
  error?: string;
}

export interface EntryCache<E extends CachedDocument> {
  read(name: string): E | undefined;
  write(name: string, entry: E): void;
  /** The entry of a document whose conversion failed, its message cut to 200 characters. */
  failed(source: string, err: unknown): CachedDocument;
}

export function entryCache<E extends CachedDocument>(dir: string, version: number): EntryCache<E> {
  const file = (name: string) => path.join(dir, `${name}.json`);
  return {
    read(name) {
      try {
        const entry = JSON.parse(fs.readFileSync(file(name), 'utf8')) as E;
        return entry.version === version ? entry : undefined;
      } catch {
        return undefined;
      }
    },
    write(name, entry) {
      fs.writeFileSync(file(name), JSON.stringify(entry));
    },
    failed(source, err) {
      return { version, source, pages: 0, error: String(err instanceof Error ? err.message : err).slice(0, 200) };
    },
  };
}
