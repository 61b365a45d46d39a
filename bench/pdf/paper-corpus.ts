/**
 * The two-column printed pages of bench/pdf/paper.ts: each page of the shared HTML corpus (the
 * pages bench:printed prints, printed-corpus.ts `corpusPages`) set as a journal would set it and
 * printed by the system Chromium into `bench/.cache/paper/` (gitignored), beside its truth read
 * from the same DOM after printing (printed-truth.ts's TRUTH_SCRIPT, unchanged).
 *
 * The setting (PAPER_STYLE, applied by printed-corpus.ts `printHtml` before printing):
 *   - a journal's trim (178 × 254 mm, a 148 mm measure), the body in two columns
 *     (`column-count: 2`, a 6 mm gutter), serif 10 pt justified text, headings bold at
 *     12 / 10.5 / 10 pt (h5, h6 italic), captions 8 pt, code 8 pt wrapped;
 *   - the page's first h1 (its title) at 16 pt across both columns (`column-span: all`);
 *   - the page's flex and grid boxes, floats and fixed or sticky boxes set in the flow, and its
 *     side margins and fixed widths taken away, so everything sits in a column;
 *   - every image a grey box (offline it would not load; a figure must still take space): an
 *     icon (declared under 48 px) keeps its size; the others in turn a column wide, both columns
 *     wide (`column-span: all` on the image or its `<figure>`: the columns are balanced above it
 *     and go on below it), or about half a column wide, at the image's declared proportions;
 *     captions (`figcaption`) stay where they are;
 *   - a table wider than a column spans both;
 *   - a running head on every page (the page's title, 7 pt, left; "Folio Paper Bench" right)
 *     and the page number at the foot (Chromium's header and footer templates: they are outside
 *     the DOM, so the truth holds neither).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printCorpus, type PrintStyle, type PrintedPage } from './printed-corpus.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PAPER_DIR = path.join(here, '..', '.cache', 'paper');
/** Bumped when the setting or the truth changes: older cache entries are printed again. */
const CACHE_VERSION = 2;

/** The running head's right-hand text (the journal's name). */
export const JOURNAL = 'Folio Paper Bench';

const STYLESHEET = `
@page { size: 178mm 254mm; margin: 20mm 15mm 16mm 15mm !important; }
html { width: auto !important; margin: 0 !important; padding: 0 !important; background: white !important; }
body {
  width: 146mm !important; max-width: none !important; min-width: 0 !important;
  margin: 0 !important; padding: 0 !important;
  column-count: 2 !important; column-gap: 6mm !important; column-fill: balance !important;
  font-family: 'DejaVu Serif', serif !important; font-size: 10pt !important; line-height: 1.3 !important;
  text-align: justify !important; hyphens: manual !important; color: black !important;
}
body *:not(pre, code, kbd, samp, tt, pre *) { font-family: 'DejaVu Serif', serif !important; }
body *:not(h1, h2, h3, h4, h5, h6, figcaption, pre, code, kbd, samp, tt, table, sup, sub, small) { font-size: inherit !important; line-height: inherit !important; }
body :where(div, section, article, main, header, footer, nav, aside, form, details, figure, p) {
  width: auto !important; max-width: 100% !important; min-width: 0 !important; box-sizing: border-box !important;
  margin-left: 0 !important; margin-right: 0 !important; padding-left: 0 !important; padding-right: 0 !important;
}
body :where(ul, ol, dl, blockquote, pre, img, svg, video, iframe, canvas, object, embed) { max-width: 100% !important; min-width: 0 !important; box-sizing: border-box !important; }
h1, h2, h3, h4, h5, h6 { font-weight: bold !important; text-align: left !important; line-height: 1.2 !important; break-after: avoid !important; margin: 0.9em 0 0.35em 0 !important; }
h1 { font-size: 12pt !important; }
h2 { font-size: 12pt !important; }
h3 { font-size: 10.5pt !important; }
h4, h5, h6 { font-size: 10pt !important; }
h5, h6 { font-style: italic !important; }
p { margin: 0 0 0.5em 0 !important; }
figure { margin: 0.6em 0 !important; break-inside: avoid !important; }
figcaption { font-size: 8pt !important; line-height: 1.25 !important; text-align: left !important; margin-top: 0.3em !important; }
pre { white-space: pre-wrap !important; overflow-wrap: anywhere !important; font-size: 8pt !important; line-height: 1.2 !important; text-align: left !important; }
code, kbd, samp, tt { font-size: 8.5pt !important; }
pre code { font-size: inherit !important; }
table { font-size: 8pt !important; line-height: 1.2 !important; text-align: left !important; width: auto !important; max-width: 100% !important; }
td, th { overflow-wrap: anywhere !important; }
img { object-fit: fill !important; }
`;

/**
 * Run in the page after the stylesheet: the page's boxes set in the flow, the title spanning, the
 * images made grey boxes, wide tables spanning. Answers the
 * running head's text.
 */
const PREPARE = String.raw`(() => {
  const GREY = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGPYAgAAtgC1GKYl5AAAAABJRU5ErkJggg==';
  const body = document.body;
  if (!body) return { title: document.title || '' };
  for (const el of Array.from(body.querySelectorAll('*'))) {
    const cs = getComputedStyle(el);
    if (cs.position === 'fixed' || cs.position === 'sticky') el.style.setProperty('position', 'static', 'important');
    if (cs.float !== 'none') el.style.setProperty('float', 'none', 'important');
    if (cs.display === 'flex' || cs.display === 'grid') el.style.setProperty('display', 'block', 'important');
    else if (cs.display === 'inline-flex' || cs.display === 'inline-grid') el.style.setProperty('display', 'inline-block', 'important');
  }
  const mm = 96 / 25.4;
  const column = (146 - 6) / 2 * mm;
  const full = 146 * mm - 2;
  const h1 = body.querySelector('h1');
  if (h1) {
    h1.style.setProperty('column-span', 'all', 'important');
    h1.style.setProperty('font-size', '16pt', 'important');
    h1.style.setProperty('text-align', 'center', 'important');
    h1.style.setProperty('margin', '0 0 0.8em 0', 'important');
  }
  for (const source of Array.from(body.querySelectorAll('picture source'))) source.remove();
  let turn = 0;
  for (const img of Array.from(body.querySelectorAll('img'))) {
    const w = Number(img.getAttribute('width')) || 0;
    const h = Number(img.getAttribute('height')) || 0;
    img.removeAttribute('srcset');
    img.removeAttribute('sizes');
    img.removeAttribute('loading');
    img.src = GREY;
    let width;
    let height;
    if ((w > 0 && w < 48) || (h > 0 && h < 48)) {
      width = Math.max(8, w || h);
      height = Math.max(8, h || w);
    } else {
      const ratio = w > 0 && h > 0 ? Math.min(1, Math.max(0.3, h / w)) : 0.6;
      const kind = turn++ % 3;
      if (kind === 1) {
        width = full;
        const target = img.closest('figure') || img;
        target.style.setProperty('column-span', 'all', 'important');
        img.style.setProperty('display', 'block', 'important');
      } else width = kind === 0 ? column : column * 0.55;
      height = Math.min(kind === 1 ? 320 : 260, width * ratio);
    }
    img.style.setProperty('width', width.toFixed(1) + 'px', 'important');
    img.style.setProperty('height', height.toFixed(1) + 'px', 'important');
    img.style.setProperty('max-width', '100%', 'important');
  }
  for (const table of Array.from(body.querySelectorAll('table'))) {
    if (table.parentElement && table.parentElement.closest('table')) continue;
    if (table.scrollWidth > column + 1) table.style.setProperty('column-span', 'all', 'important');
  }
  const title = (document.title || (h1 ? h1.innerText : '') || '').replace(/\s+/g, ' ').trim();
  return { title: title.length > 90 ? title.slice(0, 87) + '…' : title };
})()`;

const esc = (s: string): string => s.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');

/** The journal setting: the stylesheet, the page's preparation and the running head and folio. */
export const PAPER_STYLE: PrintStyle = {
  stylesheet: STYLESHEET,
  prepare: PREPARE,
  pdf(prepared) {
    const title = typeof prepared === 'object' && prepared !== null && 'title' in prepared && typeof prepared.title === 'string' ? prepared.title : '';
    const font = "font-family: 'DejaVu Serif', serif; color: black;";
    return {
      width: '178mm',
      height: '254mm',
      printBackground: false,
      displayHeaderFooter: true,
      margin: { top: '20mm', bottom: '16mm', left: '15mm', right: '15mm' },
      headerTemplate: `<div style="${font} font-size: 7pt; width: 100%; margin: 0 15mm; display: flex; justify-content: space-between; border-bottom: 0.5pt solid black; padding-bottom: 1mm;"><span>${esc(title)}</span><span>${JOURNAL}</span></div>`,
      footerTemplate: `<div style="${font} font-size: 8pt; width: 100%; text-align: center;"><span class="pageNumber"></span></div>`,
    };
  },
};

/** Every corpus page set as a paper, printing those missing from the cache (a few minutes the first time). */
export function paperPages(log: (line: string) => void): Promise<PrintedPage[]> {
  return printCorpus({ dir: PAPER_DIR, version: CACHE_VERSION, style: PAPER_STYLE, bench: 'bench:paper' }, log);
}
