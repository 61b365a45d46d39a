/**
 * One-page PDFs of text placed word run by word run (Helvetica, WinAnsi), for layout tests that
 * need a geometry no corpus page has in isolation: each run is drawn at its own baseline and left
 * edge, in its own size, so pdf.js reads back exactly these positions.
 */
import { buildPdf } from '../helpers/hostile-files.ts';

export interface PlacedText {
  text: string;
  /** Left edge, points from the page's left. */
  x: number;
  /** Baseline, points from the page's top (the layout's axis). */
  y: number;
  /** Font size in points (10 by default). */
  size?: number;
  /** Set the run justified to this width (points): its word spaces widened to fill it (regular weight only). */
  width?: number;
  /** Set in Helvetica-Bold. */
  bold?: boolean;
  /** Set in Helvetica-Oblique (Helvetica's widths). */
  italic?: boolean;
}

/** Helvetica's advance widths (its AFM, per 1000 em) for the characters the tests set. */
const HELVETICA: Record<string, number> = {
  ' ': 278, '%': 889, ',': 278, '-': 333, '.': 278, ':': 278,
  ...Object.fromEntries([...'0123456789'].map((c) => [c, 556])),
  a: 556, b: 556, c: 500, d: 556, e: 556, f: 278, g: 556, h: 556, i: 222, j: 222, k: 500, l: 222, m: 833,
  n: 556, o: 556, p: 556, q: 556, r: 333, s: 500, t: 278, u: 556, v: 500, w: 722, x: 500, y: 500, z: 500,
  A: 667, B: 667, C: 722, D: 722, E: 667, F: 611, G: 778, H: 722, I: 278, J: 500, K: 667, L: 556, M: 833,
  N: 722, O: 778, P: 667, Q: 778, R: 722, S: 667, T: 611, U: 722, V: 667, W: 944, X: 667, Y: 667, Z: 611,
  '(': 333, ')': 333, '\u00B4': 333, '\u00A8': 333,
};

/** The run's natural width in points, set in Helvetica at `size`. */
export function helveticaWidth(text: string, size: number): number {
  let units = 0;
  for (const c of text) {
    const w = HELVETICA[c];
    if (w === undefined) throw new Error(`no Helvetica width for ${JSON.stringify(c)}`);
    units += w;
  }
  return (units * size) / 1000;
}

const WIDTH = 595;
const HEIGHT = 842;

function contentOf(runs: readonly PlacedText[]): Buffer {
  const ops = runs
    .map((r) => {
      const size = r.size ?? 10;
      const spaces = r.text.split(' ').length - 1;
      // Tw widens each space (ISO 32000-1 §9.3.3), in unscaled text space units: points here.
      const tw = r.width !== undefined && spaces > 0 ? (r.width - helveticaWidth(r.text, size)) / spaces : 0;
      return `BT /${r.bold ? 'F2' : r.italic ? 'F3' : 'F1'} ${size} Tf ${tw.toFixed(3)} Tw ${r.x.toFixed(2)} ${(HEIGHT - r.y).toFixed(2)} Td (${r.text.replace(/[()\\]/g, '\\$&')}) Tj ET`;
    })
    .join('\n');
  const content = Buffer.from(`${ops}\n`, 'latin1');
  return Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')]);
}

/** An A4 page drawing the runs in order (the order is the content stream's). */
export function placedTextPdf(runs: readonly PlacedText[]): Buffer {
  return placedTextPages([runs]);
}

/** A document of A4 pages, each drawing its runs in order. */
export function placedTextPages(pages: readonly (readonly PlacedText[])[]): Buffer {
  // Objects: 1 catalog, 2 pages, 3–5 fonts, then each page and its content stream.
  const pageObject = (k: number) => 6 + 2 * k;
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, k) => `${pageObject(k)} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Oblique /Encoding /WinAnsiEncoding >>',
    ...pages.flatMap((runs, k) => [
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${WIDTH} ${HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R >> >> /Contents ${pageObject(k) + 1} 0 R >>`,
      contentOf(runs),
    ]),
  ]);
}
