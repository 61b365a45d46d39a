/**
 * The guard every zip-based reader (DOCX, ODT) opens its package through: the central directory
 * is checked before anything is inflated — entry count, compression method, declared sizes, their
 * total, the ratio of big entries — so a zip bomb is refused as CORRUPT_FILE instead of filling
 * memory. The central directory is read once; entries are then inflated one at a time, on
 * demand, through one bounded inflater: the declared size is a claim, the bytes decide, so
 * inflation stops the moment an entry's output passes its declared size or the package's output
 * passes `maxTotalUncompressed` — a lying header costs a few milliseconds, not the timeout.
 *
 * Each reader words its own errors: it passes `corrupt(reason)`, where `reason` is a clause such
 * as "it looks like a zip bomb: …", and gets back the ServiceError to throw.
 */
import zlib from 'node:zlib';
import { Inflate } from 'fflate';
import type { ServiceError } from '../../errors.ts';
import { megabytes, sourceLimits, type SourceLimits } from '../limits.ts';

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

/** The package limits under the source limits of one read (FOLIO_MAX_UNZIPPED_MB). */
export function packageLimits(limits: Partial<SourceLimits> = {}): PackageLimits {
  return { ...DEFAULT_PACKAGE_LIMITS, maxTotalUncompressed: sourceLimits(limits).maxUnzippedBytes };
}

export type Corrupt = (reason: string) => ServiceError;

interface EntryInfo {
  name: string;
  /** Compressed size. */
  size: number;
  /** Declared uncompressed size. */
  originalSize: number;
  compression: number;
  /** Offset of the entry's local header. */
  offset: number;
}

const EOCD = 0x06054b50;
const ZIP64_EOCD = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function u16(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}
function u32(b: Uint8Array, at: number): number {
  return (u16(b, at) + u16(b, at + 2) * 0x10000) >>> 0;
}
function u64(b: Uint8Array, at: number): number {
  return u32(b, at) + u32(b, at + 4) * 0x100000000;
}

const utf8 = new TextDecoder('utf-8');
const latin1 = new TextDecoder('latin1');

/** The central directory (APPNOTE 4.3.12–4.3.16, zip64 4.3.14/4.5.3), read once. */
function listEntries(bytes: Uint8Array, corrupt: Corrupt): EntryInfo[] {
  const damaged = () => corrupt('it is damaged or truncated, and its zip container cannot be read.');
  let end = -1;
  for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at--) {
    if (u32(bytes, at) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) throw damaged();
  let count = u16(bytes, end + 10);
  let cdOffset = u32(bytes, end + 16);
  if ((count === 0xffff || cdOffset === 0xffffffff) && end >= 20 && u32(bytes, end - 20) === ZIP64_LOCATOR) {
    const z = u64(bytes, end - 12);
    if (u32(bytes, z) !== ZIP64_EOCD) throw damaged();
    count = u64(bytes, z + 32);
    cdOffset = u64(bytes, z + 48);
  }
  const entries: EntryInfo[] = [];
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || u32(bytes, at) !== CENTRAL) throw damaged();
    const flags = u16(bytes, at + 8);
    const compression = u16(bytes, at + 10);
    let size = u32(bytes, at + 20);
    let originalSize = u32(bytes, at + 24);
    const nameLength = u16(bytes, at + 28);
    const extraLength = u16(bytes, at + 30);
    const commentLength = u16(bytes, at + 32);
    let offset = u32(bytes, at + 42);
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
    const name = (flags & 0x800 ? utf8 : latin1).decode(nameBytes);
    // Zip64 extended information: the 0xFFFFFFFF fields, in order, from extra field 0x0001.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength; ) {
      const id = u16(bytes, x);
      const len = u16(bytes, x + 2);
      if (id === 0x0001) {
        let y = x + 4;
        if (originalSize === 0xffffffff) (originalSize = u64(bytes, y)), (y += 8);
        if (size === 0xffffffff) (size = u64(bytes, y)), (y += 8);
        if (offset === 0xffffffff) offset = u64(bytes, y);
      }
      x += 4 + len;
    }
    entries.push({ name, size, originalSize, compression, offset });
    at += 46 + nameLength + extraLength + commentLength;
    if (entries.length > MAX_ENTRIES * 4) break;
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
    throw corrupt(`it would expand to more than ${megabytes(limits.maxTotalUncompressed)} when unzipped (the limit FOLIO_MAX_UNZIPPED_MB; a real document stays far below that).`);
  }
}

/** A checked zip package: the names of its files, and their bytes on demand. */
export class GuardedZip {
  /** File entries (folders left out), in central-directory order. */
  readonly names: readonly string[];
  private readonly bytes: Uint8Array;
  private readonly entries = new Map<string, EntryInfo>();
  private readonly corrupt: Corrupt;
  private readonly maxTotal: number;
  /** Bytes inflated so far, over all entries and all calls. */
  private inflatedTotal = 0;

  constructor(bytes: Uint8Array, corrupt: Corrupt, limits: PackageLimits = DEFAULT_PACKAGE_LIMITS) {
    this.bytes = bytes;
    this.corrupt = corrupt;
    this.maxTotal = limits.maxTotalUncompressed;
    const entries = listEntries(bytes, corrupt);
    checkEntries(entries, limits, corrupt);
    this.names = entries.filter((e) => !e.name.endsWith('/')).map((e) => e.name);
    for (const e of entries) if (!this.entries.has(e.name)) this.entries.set(e.name, e);
  }

  /** Where the entry's data starts, after its local header. */
  private dataStart(entry: EntryInfo, label: string): number {
    const at = entry.offset;
    if (at + 30 > this.bytes.length || u32(this.bytes, at) !== LOCAL) {
      throw this.corrupt(`one of its parts (${label}) cannot be found where its zip directory says.`);
    }
    const start = at + 30 + u16(this.bytes, at + 26) + u16(this.bytes, at + 28);
    if (start + entry.size > this.bytes.length) throw this.corrupt(`one of its parts (${label}) is cut short.`);
    return start;
  }

  /**
   * Inflates one entry piece by piece (the compressed bytes are fed in 64 KB slices), handing
   * each inflated piece to `onChunk`; `onChunk` returns false to stop early. Nothing of the
   * entry is held beyond the piece in hand. Returns false when there is no such entry.
   * Inflation stops, and the file is refused as corrupt, as soon as the output passes the
   * entry's declared size or the package's total limit.
   */
  inflateChunks(stored: string, onChunk: (chunk: Uint8Array) => boolean): boolean {
    const entry = this.entries.get(stored);
    if (entry === undefined) return false;
    const label = stored.slice(0, 80);
    const start = this.dataStart(entry, label);
    const data = this.bytes.subarray(start, start + entry.size);
    const declared = entry.originalSize;
    let inflated = 0;
    let stop = false;
    let failure: ServiceError | undefined;
    // What onChunk threw (an abort, a limit): passed on as it is.
    let thrown: { err: unknown } | undefined;
    const take = (chunk: Uint8Array): void => {
      if (stop) return;
      inflated += chunk.length;
      this.inflatedTotal += chunk.length;
      if (inflated > declared) {
        failure = this.corrupt(`one of its parts (${label}) expands past its declared size of ${declared} bytes (a zip bomb's trick).`);
        stop = true;
        return;
      }
      if (this.inflatedTotal > this.maxTotal) {
        failure = this.corrupt(`it expands to more than ${megabytes(this.maxTotal)} when unzipped (the limit FOLIO_MAX_UNZIPPED_MB).`);
        stop = true;
        return;
      }
      try {
        if (chunk.length > 0 && !onChunk(chunk)) stop = true;
      } catch (err) {
        thrown = { err };
        stop = true;
      }
    };
    if (entry.compression === 0) {
      take(data);
    } else {
      const inflater = new Inflate((chunk) => take(chunk));
      const SLICE = 64 * 1024;
      try {
        for (let at = 0; at < data.length && !stop; at += SLICE) {
          const end = Math.min(at + SLICE, data.length);
          inflater.push(data.subarray(at, end), end === data.length);
        }
      } catch {
        if (!thrown && !failure) throw this.corrupt(`one of its parts (${label}) cannot be decompressed.`);
      }
    }
    if (thrown) throw thrown.err;
    if (failure) throw failure;
    return true;
  }

  /**
   * Inflates one entry by its exact stored name, within the same bounds; undefined when there is
   * none. Node's zlib does the work in one call (twice as fast as inflating piece by piece): its
   * `maxOutputLength` stops inflation as soon as the output passes the bound.
   */
  inflate(stored: string): Uint8Array | undefined {
    const entry = this.entries.get(stored);
    if (entry === undefined) return undefined;
    const label = stored.slice(0, 80);
    const start = this.dataStart(entry, label);
    const data = this.bytes.subarray(start, start + entry.size);
    const remaining = Math.max(0, this.maxTotal - this.inflatedTotal);
    const bound = Math.min(entry.originalSize, remaining);
    let out: Uint8Array;
    if (entry.compression === 0) {
      out = data;
    } else {
      try {
        out = zlib.inflateRawSync(data, { maxOutputLength: bound + 1 });
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'ERR_BUFFER_TOO_LARGE') throw this.corrupt(`one of its parts (${label}) cannot be decompressed.`);
        out = new Uint8Array(bound + 2);
      }
    }
    if (out.length > entry.originalSize) {
      throw this.corrupt(`one of its parts (${label}) expands past its declared size of ${entry.originalSize} bytes (a zip bomb's trick).`);
    }
    if (out.length > remaining) {
      throw this.corrupt(`it expands to more than ${megabytes(this.maxTotal)} when unzipped (the limit FOLIO_MAX_UNZIPPED_MB).`);
    }
    this.inflatedTotal += out.length;
    return out;
  }
}
