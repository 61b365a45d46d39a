/**
 * The guard every zip-based reader (DOCX, ODT) opens its package through: the central directory
 * is checked before anything is inflated — entry count, compression method, declared sizes, their
 * total, the ratio of big entries — so a zip bomb is refused as CORRUPT_FILE instead of filling
 * memory. Entries are then inflated one at a time, on demand, into a buffer of their declared
 * size (fflate never grows it).
 *
 * Each reader words its own errors: it passes `corrupt(reason)`, where `reason` is a clause such
 * as "it looks like a zip bomb: …", and gets back the ServiceError to throw.
 */
import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import type { ServiceError } from '../../errors.ts';

/** Sum of the declared uncompressed sizes of all entries. */
export const MAX_TOTAL_UNCOMPRESSED = 512 * 1024 * 1024;
/** A bigger entry whose compression ratio is above MAX_ENTRY_RATIO is treated as a bomb. */
export const RATIO_CHECK_MIN_SIZE = 8 * 1024 * 1024;
/** Real documents stay far below this (the corpus tops out near 41:1); deflate's ceiling is ~1032:1. */
export const MAX_ENTRY_RATIO = 250;
export const MAX_ENTRIES = 20_000;

export interface PackageLimits {
  maxTotalUncompressed: number;
  maxEntryRatio: number;
  ratioCheckMinSize: number;
  maxEntries: number;
}

export const DEFAULT_PACKAGE_LIMITS: PackageLimits = {
  maxTotalUncompressed: MAX_TOTAL_UNCOMPRESSED,
  maxEntryRatio: MAX_ENTRY_RATIO,
  ratioCheckMinSize: RATIO_CHECK_MIN_SIZE,
  maxEntries: MAX_ENTRIES,
};

export type Corrupt = (reason: string) => ServiceError;

interface EntryInfo {
  name: string;
  size: number;
  originalSize: number;
  compression: number;
}

function listEntries(bytes: Uint8Array, corrupt: Corrupt): EntryInfo[] {
  const entries: EntryInfo[] = [];
  try {
    unzipSync(bytes, {
      filter(file) {
        entries.push({ name: file.name, size: file.size, originalSize: file.originalSize, compression: file.compression });
        return false;
      },
    });
  } catch {
    throw corrupt('it is damaged or truncated, and its zip container cannot be read.');
  }
  return entries;
}

function checkEntries(entries: readonly EntryInfo[], limits: PackageLimits, corrupt: Corrupt): void {
  if (entries.length > limits.maxEntries) {
    throw corrupt(`its zip container holds ${entries.length} entries, more than the ${limits.maxEntries} folio accepts.`);
  }
  let total = 0;
  for (const entry of entries) {
    if (entry.compression !== 0 && entry.compression !== 8) {
      throw corrupt('it uses a zip compression method other than deflate, which office documents never use.');
    }
    if (entry.compression === 0 && entry.size !== entry.originalSize) {
      throw corrupt('a stored zip entry declares two different sizes.');
    }
    total += entry.originalSize;
    if (entry.originalSize >= limits.ratioCheckMinSize && entry.originalSize > entry.size * limits.maxEntryRatio) {
      throw corrupt(`it looks like a zip bomb: one of its parts claims to expand more than ${limits.maxEntryRatio} times.`);
    }
  }
  if (total > limits.maxTotalUncompressed) {
    const mb = Math.round(limits.maxTotalUncompressed / (1024 * 1024));
    throw corrupt(`it would expand to more than ${mb} MB when unzipped (a real document stays far below that).`);
  }
}

/** A checked zip package: the names of its files, and their bytes on demand. */
export class GuardedZip {
  /** File entries (folders left out), in central-directory order. */
  readonly names: readonly string[];
  private readonly bytes: Uint8Array;
  private readonly declared = new Map<string, number>();
  private readonly corrupt: Corrupt;

  constructor(bytes: Uint8Array, corrupt: Corrupt, limits: PackageLimits = DEFAULT_PACKAGE_LIMITS) {
    this.bytes = bytes;
    this.corrupt = corrupt;
    const entries = listEntries(bytes, corrupt);
    checkEntries(entries, limits, corrupt);
    this.names = entries.filter((e) => !e.name.endsWith('/')).map((e) => e.name);
    for (const e of entries) this.declared.set(e.name, e.originalSize);
  }

  /**
   * Inflates one entry piece by piece (the compressed bytes are fed in 64 KB slices), handing
   * each inflated piece to `onChunk`; `onChunk` returns false to stop early. Nothing of the
   * entry is held beyond the piece in hand. Returns false when there is no such entry. More
   * bytes than the entry declared make the file corrupt, as with `inflate`.
   */
  inflateChunks(stored: string, onChunk: (chunk: Uint8Array) => boolean): boolean {
    const declared = this.declared.get(stored);
    if (declared === undefined) return false;
    let inflated = 0;
    let stop = false;
    let failure: ServiceError | undefined;
    // What onChunk threw (an abort, a limit): passed on as it is.
    let thrown: { err: unknown } | undefined;
    const unzip = new Unzip((file) => {
      if (file.name !== stored || stop) return;
      file.ondata = (err, chunk, final) => {
        if (stop) return;
        if (err) {
          failure = this.corrupt(`one of its parts (${stored.slice(0, 80)}) cannot be decompressed.`);
          stop = true;
          return;
        }
        inflated += chunk.length;
        if (inflated > declared) {
          failure = this.corrupt(`one of its parts (${stored.slice(0, 80)}) expands past its declared size.`);
          stop = true;
          return;
        }
        try {
          if (chunk.length > 0 && !onChunk(chunk)) stop = true;
        } catch (err) {
          thrown = { err };
          stop = true;
          return;
        }
        if (final) stop = true;
      };
      file.start();
    });
    unzip.register(UnzipInflate);
    const SLICE = 64 * 1024;
    try {
      for (let at = 0; at < this.bytes.length && !stop; at += SLICE) {
        const end = Math.min(at + SLICE, this.bytes.length);
        unzip.push(this.bytes.subarray(at, end), end === this.bytes.length);
      }
    } catch {
      if (thrown) throw thrown.err;
      if (failure) throw failure;
      throw this.corrupt(`one of its parts (${stored.slice(0, 80)}) cannot be decompressed.`);
    }
    if (thrown) throw thrown.err;
    if (failure) throw failure;
    return true;
  }

  /** Inflates one entry by its exact stored name; undefined when there is none. */
  inflate(stored: string): Uint8Array | undefined {
    try {
      return unzipSync(this.bytes, { filter: (file) => file.name === stored })[stored];
    } catch {
      throw this.corrupt(`one of its parts (${stored.slice(0, 80)}) cannot be decompressed.`);
    }
  }
}
