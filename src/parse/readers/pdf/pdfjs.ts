/**
 * pdf.js in Node. There is no Web Worker here: pdf.js runs its worker code on the calling thread
 * (a "fake worker"), which is what we want, since parse() itself already runs in a pool thread.
 * Handing pdf.js the worker module through `globalThis.pdfjsWorker` makes that explicit and
 * avoids its dynamic `import('./pdf.worker.mjs')`, which bundlers and test runners rewrite.
 * Both modules are loaded on the first PDF, not when the service starts.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { DocumentInitParameters } from 'pdfjs-dist/types/src/display/api.js';

export type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loading: Promise<Pdfjs> | undefined;

/**
 * pdf.js's legacy build carries core-js polyfills, and some of them replace built-ins that Node
 * already has: Array.prototype.push (2.5× slower in a tight loop, measured here), JSON.parse and
 * JSON.stringify, Function.prototype.toString. They would stay for the life of the thread, so
 * every later parse (DOCX, HTML, …) in a pool worker would pay for them. The native ones go back;
 * the additions (Promise.withResolvers, Set methods, …), which pdf.js needs on Node 20, stay.
 */
function keepNativeBuiltins(): () => void {
  const push = Array.prototype.push;
  const { parse, stringify } = JSON;
  const toString = Function.prototype.toString;
  return () => {
    Object.defineProperty(Array.prototype, 'push', { value: push, writable: true, configurable: true, enumerable: false });
    Object.defineProperty(JSON, 'parse', { value: parse, writable: true, configurable: true, enumerable: false });
    Object.defineProperty(JSON, 'stringify', { value: stringify, writable: true, configurable: true, enumerable: false });
    Object.defineProperty(Function.prototype, 'toString', { value: toString, writable: true, configurable: true, enumerable: false });
  };
}

type ToBase64 = (this: Uint8Array, options?: unknown) => string;

/**
 * Node 20 has no Uint8Array.prototype.toBase64, and the one pdf.js's polyfills add is written in
 * JavaScript: 11 ms for 100 KB, against 0.14 ms for Buffer's. pdf.js base64-encodes every
 * embedded font once (the `@font-face` rule of FONT_SINK below), so the polyfill stays for what
 * Buffer does not do (options, a detached or empty array) and Buffer's encoding does the rest —
 * the same characters, padding included. Nothing changes where the platform has its own.
 */
function fasterBase64(had: boolean): void {
  const polyfill = (Uint8Array.prototype as { toBase64?: ToBase64 }).toBase64;
  if (had || polyfill === undefined) return;
  const toBase64: ToBase64 = function (this: Uint8Array, options?: unknown): string {
    if (options === undefined && this instanceof Uint8Array && this.byteLength > 0) return Buffer.from(this.buffer, this.byteOffset, this.byteLength).toString('base64');
    return polyfill.call(this, options);
  };
  Object.defineProperty(Uint8Array.prototype, 'toBase64', { value: toBase64, writable: true, configurable: true, enumerable: false });
}

export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    const restore = keepNativeBuiltins();
    const hadBase64 = 'toBase64' in Uint8Array.prototype;
    try {
      const worker: unknown = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      restore();
      fasterBase64(hadBase64);
    }
  })();
  return loading;
}

/** pdfjs-dist's folder: CMaps (CID fonts), the standard fonts, ICC profiles and decoders (wasm). */
const PDFJS_ROOT = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/**
 * Where pdf.js's font loader puts the fonts of a page: nowhere. With `disableFontFace`, pdf.js
 * compiles an outline for every glyph drawn (and posts each to this thread) so that a canvas could
 * paint it without CSS fonts; nothing here paints, so fonts stay "face" fonts (worker side, no
 * outlines), and the `@font-face` rule the loader inserts goes into a style sheet no one reads.
 * pdf.js uses `ownerDocument` for nothing else in Node (its canvas and filter factories are the
 * Node ones). Compiling glyph outlines was 7 % of fast mode's busy time, before posting them
 * (docs/pdf.md "Where fast mode's time goes"); the text and the fonts' facts are the same.
 */
const FONT_SINK = {
  createElement: () => ({ sheet: { cssRules: { length: 0 }, insertRule: () => 0 }, remove: () => undefined }),
  documentElement: { getElementsByTagName: () => [{ append: () => undefined }] },
} as unknown as HTMLDocument;

/**
 * Parameters for reading text: no eval, no system fonts, no glyph outlines (FONT_SINK), no console output. Without
 * `images`, pdf.js skips every image instead of decoding it (a third of the time of a page with
 * photos), so the operator list has no image operations; with them, an image over
 * `maxImagePixels` is skipped.
 */
export function documentParameters(bytes: Buffer, { images = true, maxImagePixels = -1 }: { images?: boolean; maxImagePixels?: number } = {}): DocumentInitParameters {
  return {
    // A copy: pdf.js may take ownership of (detach) the buffer it is given.
    data: new Uint8Array(bytes),
    cMapUrl: path.join(PDFJS_ROOT, 'cmaps') + path.sep,
    cMapPacked: true,
    standardFontDataUrl: path.join(PDFJS_ROOT, 'standard_fonts') + path.sep,
    iccUrl: path.join(PDFJS_ROOT, 'iccs') + path.sep,
    wasmUrl: path.join(PDFJS_ROOT, 'wasm') + path.sep,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: false,
    ownerDocument: FONT_SINK,
    verbosity: 0,
    // Bigger images (an inline one, or one whose size bounds.ts could not read) are left out.
    maxImageSize: images ? maxImagePixels : 1,
  };
}
