/**
 * The .odt package (ODF 1.2 Part 3, "Packages"): a zip container read with fflate. As for
 * .docx, the central directory is checked before anything is inflated — entry count, declared
 * sizes and their total, the compression ratio of big entries — so a zip bomb is refused as
 * CORRUPT_FILE instead of filling memory. Entries are inflated one at a time, on demand.
 * A package whose manifest declares encryption data is refused as ENCRYPTED_FILE.
 */
import { unzipSync } from 'fflate';
import { ServiceError } from '../../../errors.ts';

export const MAX_TOTAL_UNCOMPRESSED = 512 * 1024 * 1024;
export const RATIO_CHECK_MIN_SIZE = 8 * 1024 * 1024;
export const MAX_ENTRY_RATIO = 250;
export const MAX_ENTRIES = 20_000;

export interface PackageLimits {
  maxTotalUncompressed: number;
  maxEntryRatio: number;
  ratioCheckMinSize: number;
  maxEntries: number;
}

const DEFAULT_LIMITS: PackageLimits = {
  maxTotalUncompressed: MAX_TOTAL_UNCOMPRESSED,
  maxEntryRatio: MAX_ENTRY_RATIO,
  ratioCheckMinSize: RATIO_CHECK_MIN_SIZE,
  maxEntries: MAX_ENTRIES,
};

interface EntryInfo {
  name: string;
  size: number;
  originalSize: number;
  compression: number;
}

export function odtCorrupt(reason: string): ServiceError {
  return new ServiceError('CORRUPT_FILE', `The OpenDocument text file could not be read: ${reason} Re-save it from LibreOffice (or export it again) and upload it again.`);
}

function listEntries(bytes: Uint8Array): EntryInfo[] {
  const entries: EntryInfo[] = [];
  try {
    unzipSync(bytes, {
      filter(file) {
        entries.push({ name: file.name, size: file.size, originalSize: file.originalSize, compression: file.compression });
        return false;
      },
    });
  } catch {
    throw odtCorrupt('it is damaged or truncated, and its zip container cannot be read.');
  }
  return entries;
}

function checkEntries(entries: readonly EntryInfo[], limits: PackageLimits): void {
  if (entries.length > limits.maxEntries) {
    throw odtCorrupt(`its zip container holds ${entries.length} entries, more than the ${limits.maxEntries} folio accepts.`);
  }
  let total = 0;
  for (const entry of entries) {
    if (entry.compression !== 0 && entry.compression !== 8) {
      throw odtCorrupt('it uses a zip compression method other than deflate, which OpenDocument files never use.');
    }
    if (entry.compression === 0 && entry.size !== entry.originalSize) {
      throw odtCorrupt('a stored zip entry declares two different sizes.');
    }
    total += entry.originalSize;
    if (entry.originalSize >= limits.ratioCheckMinSize && entry.originalSize > entry.size * limits.maxEntryRatio) {
      throw odtCorrupt(`it looks like a zip bomb: one of its parts claims to expand more than ${limits.maxEntryRatio} times.`);
    }
  }
  if (total > limits.maxTotalUncompressed) {
    const mb = Math.round(limits.maxTotalUncompressed / (1024 * 1024));
    throw odtCorrupt(`it would expand to more than ${mb} MB when unzipped (a real document stays far below that).`);
  }
}

/** The entries of one .odt, read lazily. */
export class OdtPackage {
  readonly names: readonly string[];
  private readonly bytes: Uint8Array;
  private readonly nameSet: Set<string>;
  private readonly texts = new Map<string, string>();

  constructor(bytes: Uint8Array, limits: PackageLimits = DEFAULT_LIMITS) {
    this.bytes = bytes;
    const entries = listEntries(bytes);
    checkEntries(entries, limits);
    this.names = entries.filter((e) => !e.name.endsWith('/')).map((e) => e.name);
    this.nameSet = new Set(this.names);
  }

  /** The stored name of an entry referenced from the document (`./Pictures/x.png`, `Pictures/x.png`). */
  resolve(href: string): string | undefined {
    let name = href.replace(/^\.\//, '').replace(/^\/+/, '');
    try {
      name = decodeURIComponent(name);
    } catch {
      // Not percent-encoded: kept as written.
    }
    return this.nameSet.has(name) ? name : undefined;
  }

  bytesOf(name: string): Uint8Array | undefined {
    const stored = this.resolve(name);
    if (stored === undefined) return undefined;
    let found: Uint8Array | undefined;
    try {
      found = unzipSync(this.bytes, { filter: (file) => file.name === stored })[stored];
    } catch {
      throw odtCorrupt(`one of its parts (${stored.slice(0, 80)}) cannot be decompressed.`);
    }
    return found;
  }

  /** The entry as UTF-8 text (ODF XML is always UTF-8), cached. */
  textOf(name: string): string | undefined {
    const known = this.texts.get(name);
    if (known !== undefined) return known;
    const bytes = this.bytesOf(name);
    if (bytes === undefined) return undefined;
    const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
    this.texts.set(name, text);
    return text;
  }
}
