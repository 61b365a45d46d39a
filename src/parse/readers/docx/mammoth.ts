/**
 * The main story through mammoth (`convertToHtml`). mammoth reads the package through
 * `DocxPackage` (its documented-in-code `{file}` input: exists/read), not through its own
 * JSZip copy, so every byte it sees went through the zip-bomb checks and patched parts
 * (document.xml) are what it converts. External files are never read.
 */
import mammothModule from 'mammoth';
import { altText } from './alt-text.ts';
import { convertToHtmlInStages, type MammothFile, type MammothMessage } from './mammoth-stages.ts';
import type { DocxPackage } from './package.ts';

/** The subset of mammoth's API used here, typed for what mammoth 1.x really accepts and returns. */
interface MammothImage {
  contentType: string | null | undefined;
  altText: string | undefined;
  readAsBase64String(): Promise<string>;
}

type ImageConverter = { readonly __mammothBrand: 'ImageConverter' };

interface MammothLib {
  images: { imgElement(fn: (image: MammothImage) => Promise<Record<string, string>>): ImageConverter };
}

const mammoth = mammothModule as unknown as MammothLib;

export class MissingPartError extends Error {
  constructor(readonly part: string) {
    super(`The package has no part named ${part}.`);
    this.name = 'MissingPartError';
  }
}

export interface ImageStats {
  /** Embedded pictures whose bytes could not be read (missing part). */
  missing: number;
  /** Pictures linked from outside the document: never fetched. */
  external: number;
}

export interface MammothOutput {
  html: string;
  messages: MammothMessage[];
  images: ImageStats;
}

/** The package as mammoth's `{file}` input. */
export function packageFile(pkg: DocxPackage): MammothFile {
  return {
    exists: (name) => pkg.has(name),
    async read(name, encoding) {
      if (encoding === 'base64') {
        const bytes = pkg.bytesOf(name);
        if (!bytes) throw new MissingPartError(name);
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
      }
      if (encoding) {
        const text = pkg.textOf(name);
        if (text === undefined) throw new MissingPartError(name);
        return text;
      }
      const bytes = pkg.bytesOf(name);
      if (!bytes) throw new MissingPartError(name);
      return bytes;
    },
    write() {
      throw new Error('The package is read-only.');
    },
    async toArrayBuffer() {
      throw new Error('The package is read-only.');
    },
  };
}

export interface ConvertOptions {
  styleMap: string[];
  embedImages: boolean;
  /** Alt text for a picture that has none, so its placeholder is not lost. */
  imageFallbackAlt: string;
}

export async function convertMainStory(pkg: DocxPackage, options: ConvertOptions): Promise<MammothOutput> {
  const images: ImageStats = { missing: 0, external: 0 };
  const placeholder = (image: MammothImage): Record<string, string> => ({ alt: altText(image.altText, options.imageFallbackAlt) });
  const convertImage = mammoth.images.imgElement(async (image) => {
    if (!options.embedImages) return placeholder(image);
    try {
      const base64 = await image.readAsBase64String();
      const src = `data:${image.contentType || 'application/octet-stream'};base64,${base64}`;
      // With the picture itself in the output, a missing description stays empty.
      return image.altText?.trim() ? { src, alt: altText(image.altText, '') } : { src };
    } catch (err) {
      if (err instanceof MissingPartError) images.missing++;
      else images.external++;
      return placeholder(image);
    }
  });
  const result = await convertToHtmlInStages(
    packageFile(pkg),
    (name) => pkg.textOf(name),
    {
      styleMap: options.styleMap,
      includeDefaultStyleMap: true,
      includeEmbeddedStyleMap: true,
      externalFileAccess: false,
      ignoreEmptyParagraphs: true,
      convertImage,
    },
  );
  return { html: result.value, messages: result.messages, images };
}

export type { MammothMessage };
