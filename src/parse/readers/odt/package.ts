/**
 * The .odt package (ODF 1.2 Part 3, "Packages"): a zip container opened through the shared zip
 * guard (limits checked before anything is inflated; entries inflated on demand). A package
 * whose manifest declares encryption data is refused as ENCRYPTED_FILE.
 */
import { ServiceError } from '../../../errors.ts';
import { DEFAULT_PACKAGE_LIMITS, GuardedZip, type PackageLimits } from '../zip-guard.ts';

export function odtCorrupt(reason: string): ServiceError {
  return new ServiceError('CORRUPT_FILE', `The OpenDocument text file could not be read: ${reason} Re-save it from LibreOffice (or export it again) and upload it again.`);
}

/** The entries of one .odt, read lazily. */
export class OdtPackage {
  readonly names: readonly string[];
  private readonly zip: GuardedZip;
  private readonly nameSet: Set<string>;
  private readonly texts = new Map<string, string>();

  constructor(bytes: Uint8Array, limits: PackageLimits = DEFAULT_PACKAGE_LIMITS) {
    this.zip = new GuardedZip(bytes, odtCorrupt, limits);
    this.names = this.zip.names;
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
    return stored === undefined ? undefined : this.zip.inflate(stored);
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
