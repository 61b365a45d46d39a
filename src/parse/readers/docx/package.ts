/**
 * The .docx package (ECMA-376 Part 2, Open Packaging Conventions): a zip container opened
 * through the shared zip guard (limits checked before anything is inflated; entries inflated on
 * demand), with parts cached, looked up case-insensitively, and patchable before mammoth reads them.
 */
import { ServiceError } from '../../../errors.ts';
import { DEFAULT_PACKAGE_LIMITS, GuardedZip, type PackageLimits } from '../zip-guard.ts';


function corrupt(reason: string): ServiceError {
  return new ServiceError('CORRUPT_FILE', `The Word document could not be read: ${reason} Re-save it from Word and upload it again.`);
}

/** The parts of one .docx, read lazily. */
export class DocxPackage {
  readonly names: readonly string[];
  private readonly zip: GuardedZip;
  private readonly nameSet: Set<string>;
  private readonly byLowerName = new Map<string, string>();
  private readonly cache = new Map<string, Uint8Array>();
  /** Decoded parts, and parts replaced by overrideText. */
  private readonly texts = new Map<string, string>();

  constructor(bytes: Uint8Array, limits: PackageLimits = DEFAULT_PACKAGE_LIMITS) {
    this.zip = new GuardedZip(bytes, corrupt, limits);
    this.names = this.zip.names;
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
    const found = this.zip.inflate(stored);
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
