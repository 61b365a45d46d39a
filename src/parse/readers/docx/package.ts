/**
 * The .docx package (ECMA-376 Part 2, Open Packaging Conventions): a zip container read with
 * fflate. The central directory is checked before anything is decompressed — declared sizes,
 * the total, and the compression ratio of big entries — so a zip bomb is refused as
 * CORRUPT_FILE instead of filling memory. Entries are then inflated one at a time, on demand,
 * into a buffer of their declared size (fflate never grows it), and cached.
 */
import { unzipSync } from 'fflate';
import { ServiceError } from '../../../errors.ts';

/** Sum of the declared uncompressed sizes of all entries. */
export const MAX_TOTAL_UNCOMPRESSED = 512 * 1024 * 1024;
/** A bigger entry whose compression ratio is above MAX_ENTRY_RATIO is treated as a bomb. */
export const RATIO_CHECK_MIN_SIZE = 8 * 1024 * 1024;
/** Real documents stay far below this (the corpus tops out near 41:1); deflate's ceiling is ~1032:1. */
export const MAX_ENTRY_RATIO = 250;
export const MAX_ENTRIES = 20_000;

interface EntryInfo {
  name: string;
  size: number;
  originalSize: number;
  compression: number;
}

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

function corrupt(message: string): ServiceError {
  return new ServiceError('CORRUPT_FILE', message);
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
    throw corrupt('The Word document is damaged or truncated: its zip container cannot be read. Re-save it from Word and upload it again.');
  }
  return entries;
}

function checkEntries(entries: readonly EntryInfo[], limits: PackageLimits): void {
  if (entries.length > limits.maxEntries) {
    throw corrupt(`The Word document's zip container holds ${entries.length} entries, more than the ${limits.maxEntries} folio accepts.`);
  }
  let total = 0;
  for (const entry of entries) {
    if (entry.compression !== 0 && entry.compression !== 8) {
      throw corrupt('The Word document uses a zip compression method other than deflate, which Office files never use; the file is damaged or not a real .docx.');
    }
    if (entry.compression === 0 && entry.size !== entry.originalSize) {
      throw corrupt('The Word document is damaged: a stored zip entry declares two different sizes.');
    }
    total += entry.originalSize;
    if (entry.originalSize >= limits.ratioCheckMinSize && entry.originalSize > entry.size * limits.maxEntryRatio) {
      throw corrupt(
        'The Word document looks like a zip bomb: one of its parts claims to expand more than ' +
          `${limits.maxEntryRatio} times. Such files are refused.`,
      );
    }
  }
  if (total > limits.maxTotalUncompressed) {
    const mb = Math.round(limits.maxTotalUncompressed / (1024 * 1024));
    throw corrupt(`The Word document would expand to more than ${mb} MB when unzipped, which folio refuses (a real document stays far below that).`);
  }
}

/** The parts of one .docx, read lazily. */
export class DocxPackage {
  readonly names: readonly string[];
  private readonly bytes: Uint8Array;
  private readonly nameSet: Set<string>;
  private readonly byLowerName = new Map<string, string>();
  private readonly cache = new Map<string, Uint8Array>();
  /** Decoded parts, and parts replaced by overrideText. */
  private readonly texts = new Map<string, string>();

  constructor(bytes: Uint8Array, limits: PackageLimits = DEFAULT_LIMITS) {
    this.bytes = bytes;
    const entries = listEntries(bytes);
    checkEntries(entries, limits);
    this.names = entries.filter((e) => !e.name.endsWith('/')).map((e) => e.name);
    this.nameSet = new Set(this.names);
    for (const name of this.names) {
      const lower = name.toLowerCase();
      if (!this.byLowerName.has(lower)) this.byLowerName.set(lower, name);
    }
  }

  /** The stored name of a part: exact first, then ignoring case and a leading slash. */
  resolve(name: string): string | undefined {
    const clean = name.replace(/^\/+/, '');
    if (this.nameSet.has(clean) || this.texts.has(clean)) return clean;
    return this.byLowerName.get(clean.toLowerCase());
  }

  has(name: string): boolean {
    return this.resolve(name) !== undefined;
  }

  /** The part's bytes, or undefined when the package has no such part. */
  bytesOf(name: string): Uint8Array | undefined {
    const stored = this.resolve(name);
    if (stored === undefined) return undefined;
    const cached = this.cache.get(stored);
    if (cached) return cached;
    let found: Uint8Array | undefined;
    try {
      const files = unzipSync(this.bytes, { filter: (file) => file.name === stored });
      found = files[stored];
    } catch {
      throw corrupt('The Word document is damaged: one of its parts cannot be decompressed.');
    }
    if (found === undefined) return undefined;
    this.cache.set(stored, found);
    return found;
  }

  /** The part as text (UTF-8 or UTF-16 by its byte-order mark; the BOM is dropped). */
  textOf(name: string): string | undefined {
    const stored = this.resolve(name);
    if (stored === undefined) return undefined;
    const known = this.texts.get(stored);
    if (known !== undefined) return known;
    const bytes = this.bytesOf(stored);
    if (bytes === undefined) return undefined;
    const text = decodeXmlBytes(bytes);
    this.texts.set(stored, text);
    // A part read as text is kept once, as text.
    this.cache.delete(stored);
    return text;
  }

  /** Replaces a part's text for every later reader (mammoth included): used to patch document.xml. */
  overrideText(name: string, text: string): void {
    const stored = this.resolve(name) ?? name;
    this.texts.set(stored, text);
  }
}

export function decodeXmlBytes(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}
