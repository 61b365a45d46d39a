/**
 * One pdf.js page → PageModel (page-model.ts): the text layer split into words, the ruling lines,
 * filled boxes and images of the operator list, and the link annotations, all in the page's
 * displayed orientation with a top-left origin.
 *
 * The operator list is read for geometry only (no rendering): paths are in user space there
 * (pdf.js ≥ 5 keeps the CTM out of constructPath), so the CTM is tracked here through
 * save/restore/transform and form XObjects (ISO 32000-1 §8.4.4, §8.10).
 */
import type { PDFPageProxy, TextContent, TextItem } from 'pdfjs-dist/types/src/display/api.js';
import type { Box, ImageBox, LinkBox, PageModel, Rule, Word } from './page-model.ts';
import type { Pdfjs } from './pdfjs.ts';
import { DEFAULT_SOURCE_LIMITS } from '../../limits.ts';
import { joinAccents } from './accents.ts';
import { characterEdges } from './glyph-widths.ts';
import { contentRoles, mcidOf, type ContentRole } from './structure.ts';
import { normaliseText } from './text-normalise.ts';

type Matrix = [number, number, number, number, number, number];

function multiply(m: readonly number[], n: readonly number[]): Matrix {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
  const [a2 = 1, b2 = 0, c2 = 0, d2 = 1, e2 = 0, f2 = 0] = n;
  // The product m × n as pdf.js's Util.transform computes it: apply n first, then m.
  return [a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f];
}

function apply(m: readonly number[], x: number, y: number): [number, number] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
  return [a * x + c * y + e, b * x + d * y + f];
}

/** The axis-aligned box of the unit-free rectangle (x0,y0)-(x1,y1) under m. */
function boxUnder(m: readonly number[], x0: number, y0: number, x1: number, y1: number): Box {
  const points = [apply(m, x0, y0), apply(m, x1, y0), apply(m, x0, y1), apply(m, x1, y1)];
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

function isTextItem(item: unknown): item is TextItem {
  return typeof item === 'object' && item !== null && typeof (item as { str?: unknown }).str === 'string';
}

const BOLD_NAME = /bold|black|heavy|semibold|demibold|extrabold|ultrabold|[-,]bd\b|\bbd$/i;
const ITALIC_NAME = /italic|oblique|[-,]it\b|\bit$|slanted/i;

interface FontFacts {
  bold: boolean;
  italic: boolean;
  monospace: boolean;
}

/** Bold/italic from pdf.js's font object (loaded by the operator list) or else the family name. */
function fontFacts(page: PDFPageProxy, loadedName: string, family: string | undefined): FontFacts {
  let name = family ?? '';
  let bold = false;
  let italic = false;
  let monospace = false;
  try {
    if (page.commonObjs.has(loadedName)) {
      const font = page.commonObjs.get(loadedName) as { name?: unknown; bold?: unknown; black?: unknown; italic?: unknown; isMonospace?: unknown } | null;
      if (font) {
        if (typeof font.name === 'string') name = `${font.name} ${name}`;
        bold = font.bold === true || font.black === true;
        italic = font.italic === true;
        monospace = font.isMonospace === true;
      }
    }
  } catch {
    // A font that failed to load has no facts; the name still helps.
  }
  return { bold: bold || BOLD_NAME.test(name), italic: italic || ITALIC_NAME.test(name), monospace: monospace || /mono|courier|consol/i.test(name) };
}

interface WordDraft {
  words: Word[];
  order: number;
}

/**
 * Splits one text item into words. pdf.js gives the item's advance width but no per-glyph
 * positions, so a word's share of the width is estimated from typical glyph widths
 * (glyph-widths.ts): close enough to tell columns and cells apart, which is what the boxes are for.
 */
interface Marks {
  role: ContentRole | undefined;
  artifact: boolean;
}

function addItemWords(draft: WordDraft, item: TextItem, viewport: readonly number[], styles: TextContent['styles'], facts: FontFacts, marks: Marks): void {
  const text = normaliseText(item.str);
  if (text.trim() === '') return;
  const m = multiply(viewport, item.transform);
  const scaleX = Math.hypot(m[0], m[1]);
  const size = Math.hypot(m[2], m[3]) || Math.abs(item.height);
  if (!(size > 0) || !(scaleX > 0) || !Number.isFinite(size)) return;
  const ux = m[0] / scaleX;
  const uy = m[1] / scaleX;
  // Viewport space has y downwards, so upright text runs along +x.
  const rotated = Math.abs(uy) > 0.02 || ux < 0;
  const style = styles[item.fontName];
  const ascent = style && style.ascent > 0 && style.ascent < 1.5 ? style.ascent : 0.8;
  const descent = style && style.descent < 0 && style.descent > -1 ? style.descent : -0.2;
  // The item's advance in viewport units (item.width is in user space).
  const advance = Math.abs(item.width) * Math.hypot(viewport[0] ?? 1, viewport[1] ?? 0);
  const edges = characterEdges(text, facts.monospace);
  const [x, y] = [m[4], m[5]];
  // Unit vector across the line, pointing up the glyphs (towards smaller y for upright text).
  const upx = uy;
  const upy = -ux;
  const re = /\S+/gu;
  for (let match = re.exec(text); match !== null; match = re.exec(text)) {
    const start = (edges[match.index] as number) * advance;
    const end = (edges[match.index + match[0].length] as number) * advance;
    const corners = [
      [x + ux * start + upx * descent * size, y + uy * start + upy * descent * size],
      [x + ux * end + upx * descent * size, y + uy * end + upy * descent * size],
      [x + ux * start + upx * ascent * size, y + uy * start + upy * ascent * size],
      [x + ux * end + upx * ascent * size, y + uy * end + upy * ascent * size],
    ] as const;
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    draft.words.push({
      text: match[0],
      x0: Math.min(...xs),
      y0: Math.min(...ys),
      x1: Math.max(...xs),
      y1: Math.max(...ys),
      size,
      font: item.fontName,
      bold: facts.bold,
      italic: facts.italic,
      ...(facts.monospace ? { monospace: true } : {}),
      order: draft.order++,
      rotated,
      baseline: y,
      ...(marks.role ? { role: marks.role.role } : {}),
      ...(marks.artifact ? { artifact: true } : {}),
    });
  }
}

/**
 * Words drawn twice at (almost) the same place: "fake bold" (the same text overprinted with a
 * small offset) or a shadow. One copy stays, marked bold.
 */
function dropOverprints(words: Word[]): Word[] {
  const seen = new Map<string, Word>();
  const out: Word[] = [];
  for (const w of words) {
    const key = `${w.text}\u0000${Math.round(w.baseline / 2)}`;
    const twin = seen.get(key);
    if (twin && Math.abs(twin.x0 - w.x0) < 0.15 * w.size && Math.abs(twin.baseline - w.baseline) < 0.15 * w.size) {
      twin.bold = true;
      continue;
    }
    seen.set(key, w);
    out.push(w);
  }
  return out;
}

const RULE_THICKNESS = 2;
/**
 * A stroked line up to this thick is still a rule when it is long for its weight (HEAVY_LENGTH
 * times): a word processor's heavy border (Word's 3 pt rule under a table's head), not a bar.
 */
const HEAVY_RULE = 4.5;
const HEAVY_LENGTH = 20;

interface Geometry {
  rules: Rule[];
  fills: Box[];
  images: ImageBox[];
  /** Set when a limit stopped the walk: the limit, in words. */
  skipped?: string;
}

/** Per-page drawing limits (SourceLimits). */
export interface PageLimits {
  maxPdfOperatorsPerPage: number;
  maxPdfPathSegments: number;
}

/** A stroked segment or a thin filled box as a rule, when it is horizontal or vertical. */
function ruleOf(box: Box, page: { width: number; height: number }, thickness = RULE_THICKNESS): Rule | undefined {
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  if (box.x1 < 0 || box.y1 < 0 || box.x0 > page.width || box.y0 > page.height) return undefined;
  if (h <= thickness && w > h * 3 && w >= 4) return { ...box, orientation: 'horizontal' };
  if (w <= thickness && h > w * 3 && h >= 4) return { ...box, orientation: 'vertical' };
  return undefined;
}

/** A stroked segment's thickness allowance: heavy when the segment is long for its weight. */
function strokeThickness(length: number, width: number): number {
  return width <= HEAVY_RULE && length >= HEAVY_LENGTH * width ? HEAVY_RULE : RULE_THICKNESS;
}

/**
 * White paint (every channel ≥ 250 of 255): a background, not a line or a shaded cell. Light
 * grays such as #f2f2f2 are visible shading and stay.
 */
function isWhite(color: unknown): boolean {
  if (typeof color !== 'string' || !/^#[0-9a-f]{6}$/i.test(color)) return false;
  return [1, 3, 5].every((i) => Number.parseInt(color.slice(i, i + 2), 16) >= 250);
}

function pathGeometry(
  ops: Pdfjs['OPS'],
  fn: number,
  path: Float32Array,
  ctm: readonly number[],
  lineWidth: number,
  fillColor: unknown,
  page: { width: number; height: number },
  out: Geometry,
): number {
  const stroke = fn === ops.stroke || fn === ops.closeStroke || fn === ops.fillStroke || fn === ops.eoFillStroke || fn === ops.closeFillStroke || fn === ops.closeEOFillStroke;
  const fill = fn === ops.fill || fn === ops.eoFill || fn === ops.fillStroke || fn === ops.eoFillStroke || fn === ops.closeFillStroke || fn === ops.closeEOFillStroke;
  if (!stroke && !fill) return 0;
  // Split the path into subpaths of straight segments; a subpath with a curve is not a rule.
  const widthAcross = Math.max(lineWidth * Math.hypot(ctm[0] ?? 1, ctm[1] ?? 0), 0.5);
  let points: [number, number][] = [];
  let curved = false;
  const flush = () => {
    if (points.length >= 2 && !curved) {
      if (stroke) {
        for (let i = 1; i < points.length; i++) {
          const [ax, ay] = points[i - 1] as [number, number];
          const [bx, by] = points[i] as [number, number];
          const half = widthAcross / 2;
          const rule = ruleOf({ x0: Math.min(ax, bx) - (ay === by ? 0 : half), y0: Math.min(ay, by) - (ax === bx ? 0 : half), x1: Math.max(ax, bx) + (ay === by ? 0 : half), y1: Math.max(ay, by) + (ax === bx ? 0 : half) }, page, strokeThickness(Math.hypot(bx - ax, by - ay), widthAcross));
          if (rule) out.rules.push(rule);
        }
      }
      if (fill && !isWhite(fillColor)) {
        const xs = points.map((p) => p[0]);
        const ys = points.map((p) => p[1]);
        const box = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
        const rule = ruleOf(box, page);
        if (rule) out.rules.push(rule);
        else if (box.x1 - box.x0 > RULE_THICKNESS && box.y1 - box.y0 > RULE_THICKNESS && (box.x1 - box.x0) * (box.y1 - box.y0) < page.width * page.height * 0.9) out.fills.push(box);
      }
    }
    points = [];
    curved = false;
  };
  let segments = 0;
  for (let i = 0; i < path.length; ) {
    const op = path[i++];
    segments++;
    if (op === 0) {
      flush();
      points.push(apply(ctm, path[i++] as number, path[i++] as number));
    } else if (op === 1) {
      points.push(apply(ctm, path[i++] as number, path[i++] as number));
    } else if (op === 2) {
      curved = true;
      i += 6;
    } else if (op === 3) {
      curved = true;
      i += 4;
    } else if (op === 4) {
      if (points.length > 0 && stroke) points.push(points[0] as [number, number]);
    } else {
      break;
    }
  }
  flush();
  return segments;
}

/** Rules, filled boxes and images of the page, from its operator list. */
async function readGeometry(
  pdfjs: Pdfjs,
  page: PDFPageProxy,
  viewport: readonly number[],
  size: { width: number; height: number },
  altByMcid: ReadonlyMap<number, string>,
  limits: PageLimits,
): Promise<Geometry> {
  const out: Geometry = { rules: [], fills: [], images: [] };
  const list = await page.getOperatorList();
  if (list.fnArray.length > limits.maxPdfOperatorsPerPage) {
    return { rules: [], fills: [], images: [], skipped: `more than ${limits.maxPdfOperatorsPerPage} drawing operators (the limit FOLIO_MAX_PDF_OPERATORS)` };
  }
  let segments = 0;
  const OPS = pdfjs.OPS;
  let ctm: readonly number[] = viewport;
  let lineWidth = 1;
  let fillColor: unknown = '#000000';
  const stack: { ctm: readonly number[]; lineWidth: number; fillColor: unknown }[] = [];
  // Marked content (§14.6) open around the current operator: a Figure's MCID gives the alt text.
  const marked: (number | undefined)[] = [];
  const { fnArray, argsArray } = list;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    switch (fn) {
      case OPS.save:
        stack.push({ ctm, lineWidth, fillColor });
        break;
      case OPS.restore: {
        const state = stack.pop();
        if (state) ({ ctm, lineWidth, fillColor } = state);
        break;
      }
      case OPS.transform:
        if (args) ctm = multiply(ctm, args as number[]);
        break;
      case OPS.paintFormXObjectBegin: {
        stack.push({ ctm, lineWidth, fillColor });
        const matrix = args?.[0];
        if (Array.isArray(matrix) || ArrayBuffer.isView(matrix)) ctm = multiply(ctm, Array.from(matrix as ArrayLike<number>));
        break;
      }
      case OPS.paintFormXObjectEnd: {
        const state = stack.pop();
        if (state) ({ ctm, lineWidth, fillColor } = state);
        break;
      }
      case OPS.setLineWidth:
        if (typeof args?.[0] === 'number') lineWidth = args[0];
        break;
      case OPS.setFillRGBColor:
        fillColor = args?.[0];
        break;
      case OPS.setFillGray:
      case OPS.setFillCMYKColor:
      case OPS.setFillColorN:
        // pdf.js converts these to RGB hex in the list too; anything else is "not white".
        fillColor = typeof args?.[0] === 'string' ? args[0] : '#000000';
        break;
      case OPS.constructPath: {
        const [op, data] = (args ?? []) as [number, [Float32Array | null] | undefined];
        const path = data?.[0];
        if (path instanceof Float32Array) {
          // Counted before the walk (a path's length bounds its segments), so a huge path is never walked.
          segments += path.length / 3;
          if (segments > limits.maxPdfPathSegments) {
            return { rules: [], fills: [], images: [], skipped: `more than ${limits.maxPdfPathSegments} path segments (the limit FOLIO_MAX_PDF_PATH_SEGMENTS)` };
          }
          pathGeometry(OPS, op, path, ctm, lineWidth, fillColor, size, out);
        }
        break;
      }
      case OPS.beginMarkedContent:
        marked.push(undefined);
        break;
      case OPS.beginMarkedContentProps:
        marked.push(typeof args?.[1] === 'number' ? args[1] : undefined);
        break;
      case OPS.endMarkedContent:
        marked.pop();
        break;
      case OPS.paintImageXObject:
      case OPS.paintInlineImageXObject:
      case OPS.paintImageMaskXObject: {
        const box = boxUnder(ctm, 0, 0, 1, 1);
        if (box.x1 - box.x0 >= 1 && box.y1 - box.y0 >= 1) {
          let alt: string | undefined;
          for (let k = marked.length - 1; k >= 0 && alt === undefined; k--) {
            const mcid = marked[k];
            if (mcid !== undefined) alt = altByMcid.get(mcid);
          }
          out.images.push(alt === undefined ? box : { ...box, alt });
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

interface LinkAnnotation {
  subtype?: unknown;
  url?: unknown;
  unsafeUrl?: unknown;
  rect?: unknown;
}

async function readLinks(page: PDFPageProxy, viewport: readonly number[]): Promise<LinkBox[]> {
  const links: LinkBox[] = [];
  let annotations: LinkAnnotation[];
  try {
    annotations = (await page.getAnnotations({ intent: 'display' })) as LinkAnnotation[];
  } catch {
    return links;
  }
  for (const a of annotations) {
    if (a.subtype !== 'Link') continue;
    const url = typeof a.url === 'string' ? a.url : typeof a.unsafeUrl === 'string' ? a.unsafeUrl : undefined;
    if (!url || !/^(?:https?|mailto):/i.test(url)) continue;
    const rect = Array.isArray(a.rect) ? (a.rect as number[]) : undefined;
    if (!rect || rect.length !== 4) continue;
    links.push({ ...boxUnder(viewport, rect[0] as number, rect[1] as number, rect[2] as number, rect[3] as number), url });
  }
  return links;
}

/** Reads one page into a PageModel. The caller cleans the page up. */
export async function extractPage(pdfjs: Pdfjs, page: PDFPageProxy, number: number, limits: PageLimits = DEFAULT_SOURCE_LIMITS): Promise<PageModel> {
  const viewport = page.getViewport({ scale: 1 });
  const transform = viewport.transform;
  const size = { width: viewport.width, height: viewport.height };
  const roles = await contentRoles(page);
  const altByMcid = new Map<number, string>();
  for (const [id, role] of roles) {
    const mcid = mcidOf(id);
    if (role.alt !== undefined && mcid !== undefined) altByMcid.set(mcid, role.alt);
  }
  // Geometry first: the operator list loads the fonts, whose bold/italic flags the words use.
  const { skipped, ...geometry } = await readGeometry(pdfjs, page, transform, size, altByMcid, limits);
  const content = await page.getTextContent({ includeMarkedContent: true });
  const draft: WordDraft = { words: [], order: 0 };
  const facts = new Map<string, FontFacts>();
  // Open marked-content sequences: their structure roles, and whether one is an Artifact.
  const open: { role: ContentRole | undefined; artifact: boolean }[] = [];
  const marks = (): Marks => {
    let role: ContentRole | undefined;
    let artifact = false;
    for (let k = open.length - 1; k >= 0; k--) {
      const m = open[k] as { role: ContentRole | undefined; artifact: boolean };
      role ??= m.role;
      artifact ||= m.artifact;
    }
    return { role, artifact };
  };
  for (const item of content.items) {
    if (!isTextItem(item)) {
      const mark = item as { type?: unknown; id?: unknown; tag?: unknown };
      if (mark.type === 'beginMarkedContent' || mark.type === 'beginMarkedContentProps') {
        open.push({ role: typeof mark.id === 'string' ? roles.get(mark.id) : undefined, artifact: mark.tag === 'Artifact' });
      } else if (mark.type === 'endMarkedContent') {
        open.pop();
      }
      continue;
    }
    let f = facts.get(item.fontName);
    if (!f) {
      f = fontFacts(page, item.fontName, content.styles[item.fontName]?.fontFamily);
      facts.set(item.fontName, f);
    }
    addItemWords(draft, item, transform, content.styles, f, marks());
  }
  const links = await readLinks(page, transform);
  return {
    number,
    width: size.width,
    height: size.height,
    words: joinAccents(dropOverprints(draft.words)),
    ...geometry,
    links,
    source: 'text',
    ...(skipped ? { drawingSkipped: skipped } : {}),
  };
}
