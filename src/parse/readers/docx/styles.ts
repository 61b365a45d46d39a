/**
 * Paragraph styles → mammoth style-map lines. mammoth maps only the English built-in heading
 * names; this adds, for the styles the document actually uses:
 *  - any style with an outline level (ECMA-376 §17.3.1.20 `w:outlineLvl`, own or inherited
 *    through `w:basedOn`): that level is what Word's navigation pane shows as a heading;
 *  - Title and localized heading/title names (documents written by localized tools);
 *  - style IDs of undefined styles that follow Word's localized naming (`berschrift1`, `Titre1`);
 *  - quotes → blockquote, code styles → pre.
 * Also reads the document's default language (`w:docDefaults` run properties). styles.xml is
 * scanned as text: it is often hundreds of kilobytes, and only a few facts are needed.
 */
import type { HeadingStyles } from './numbering.ts';
import { decodeXmlEntities, xmlAttribute } from './xml.ts';

interface StyleInfo {
  id: string;
  name: string | undefined;
  basedOn: string | undefined;
  outlineLevel: number | undefined;
  numId: string | undefined;
  numLevel: number | undefined;
}

export interface StyleFacts {
  /** Style-map lines to put before mammoth's defaults. */
  styleMap: string[];
  /** BCP 47 tag from the default run properties, when set. */
  language: string | undefined;
  /** Used styles that become headings, and the numbering paragraph styles carry. */
  headingStyles: HeadingStyles;
  /**
   * styles.xml reduced to what mammoth reads (each style's type, id, name and numbering), or
   * undefined to serve the original. Modern templates carry hundreds of kilobytes of table-style
   * formatting that mammoth would parse only to ignore.
   */
  slimStylesXml: string | undefined;
}

const HEADING_WORDS =
  'heading|überschrift|berschrift|titre|título|titulo|ttulo|titolo|kop|rubrik|overskrift|otsikko|nagłówek|nagwek|nadpis|заголовок|başlık|balk|címsor|naslov|antet|pealkiri|virsraksts|antraštė|επικεφαλίδα|כותרת|عنوان|見出し|标题|標題|제목';
const HEADING_NAME = new RegExp(`^(?:${HEADING_WORDS})\\s*([1-9])$`, 'iu');
const HEADING_ID = new RegExp(`^(?:${HEADING_WORDS})([1-9])$`, 'iu');
const TITLE_NAME = /^(?:title|titel|titre|título|titulo|ttulo|titolo|tytuł|tytu|název|nzev|názov|заглавие|название|konu başlığı|konubal|表題|标题|제목)$/iu;
const QUOTE_NAME = /^(?:quote|intense quote|block text)$/i;
const CODE_NAME = /^(?:source code|html preformatted|code|code block)$/i;

const STYLE_ELEMENT = /<w:style\b([^>]*?)(?:\/>|>([\s\S]*?)<\/w:style>)/g;

function childValue(inner: string, name: string): string | undefined {
  const tag = new RegExp(`<${name}\\b[^>]*>`).exec(inner);
  const value = tag ? xmlAttribute(tag[0], 'w:val') : undefined;
  return value === undefined ? undefined : decodeXmlEntities(value);
}

interface ScannedStyles {
  paragraphStyles: Map<string, StyleInfo>;
  slim: string | undefined;
}

/** One pass over styles.xml: the paragraph styles, and the slim copy for mammoth. */
function scanStyles(stylesXml: string | undefined): ScannedStyles {
  const paragraphStyles = new Map<string, StyleInfo>();
  if (!stylesXml) return { paragraphStyles, slim: undefined };
  const root = /<w:styles\b[^>]*>/.exec(stylesXml);
  const slimParts: string[] = [];
  for (const match of stylesXml.matchAll(STYLE_ELEMENT)) {
    const attributes = match[1] ?? '';
    const inner = match[2] ?? '';
    const type = xmlAttribute(`<x ${attributes}>`, 'w:type');
    const rawId = xmlAttribute(`<x ${attributes}>`, 'w:styleId');
    const nameTag = /<w:name\b[^>]*>/.exec(inner)?.[0] ?? '';
    const numPr = /<w:numPr\b[^>]*>[\s\S]*?<\/w:numPr>/.exec(inner)?.[0];
    slimParts.push(`<w:style${attributes}>${nameTag}${numPr ? `<w:pPr>${numPr}</w:pPr>` : ''}</w:style>`);
    if (type !== 'paragraph' || rawId === undefined) continue;
    const id = decodeXmlEntities(rawId);
    const level = childValue(inner, 'w:outlineLvl');
    const numLevel = numPr ? childValue(numPr, 'w:ilvl') : undefined;
    paragraphStyles.set(id, {
      id,
      name: childValue(inner, 'w:name')?.trim(),
      basedOn: childValue(inner, 'w:basedOn'),
      outlineLevel: level !== undefined && /^\d+$/.test(level) ? Number(level) : undefined,
      numId: numPr ? childValue(numPr, 'w:numId') : undefined,
      numLevel: numLevel !== undefined && /^\d$/.test(numLevel) ? Number(numLevel) : undefined,
    });
  }
  const slim = root ? `${root[0]}${slimParts.join('')}</w:styles>` : undefined;
  return { paragraphStyles, slim };
}

function readDefaultLanguage(stylesXml: string | undefined): string | undefined {
  if (!stylesXml) return undefined;
  const defaults = /<w:docDefaults\b[\s\S]*?<\/w:docDefaults>/.exec(stylesXml)?.[0];
  const lang = defaults ? /<w:lang\b[^>]*>/.exec(defaults)?.[0] : undefined;
  const value = lang ? xmlAttribute(lang, 'w:val')?.trim() : undefined;
  return value && /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(value) ? value : undefined;
}

/** A property through the basedOn chain (cycles and depth guarded). */
function inherited<T>(styles: Map<string, StyleInfo>, id: string, pick: (style: StyleInfo) => T | undefined): T | undefined {
  let current = styles.get(id);
  for (let depth = 0; current && depth < 20; depth++) {
    const found = pick(current);
    if (found !== undefined) return found;
    current = current.basedOn ? styles.get(current.basedOn) : undefined;
  }
  return undefined;
}

function effectiveOutlineLevel(styles: Map<string, StyleInfo>, id: string): number | undefined {
  return inherited(styles, id, (style) => style.outlineLevel);
}

/** The paragraph style IDs a document.xml uses. */
export function usedParagraphStyles(documentXml: string): Set<string> {
  const used = new Set<string>();
  for (const match of documentXml.matchAll(/<w:pStyle\s+w:val="([^"]*)"/g)) {
    if (match[1]) used.add(match[1]);
  }
  return used;
}

/** A style ID as a mammoth style-map identifier: anything but [A-Za-z_-] (and later digits) escaped. */
export function styleMapIdentifier(id: string): string {
  let out = '';
  for (const [i, ch] of Array.from(id).entries()) {
    const plain = /[A-Za-z_-]/.test(ch) || (i > 0 && /[0-9]/.test(ch));
    out += plain ? ch : `\\${ch}`;
  }
  return out;
}

function headingLevelFor(style: StyleInfo | undefined, id: string, styles: Map<string, StyleInfo>): number | undefined {
  if (style) {
    const outline = effectiveOutlineLevel(styles, id);
    // Levels 0–8 are headings 1–9; 9 is body text. HTML stops at h6.
    if (outline !== undefined && outline <= 8) return Math.min(outline + 1, 6);
    const name = style.name ?? '';
    const heading = HEADING_NAME.exec(name);
    if (heading?.[1]) return Math.min(Number(heading[1]), 6);
    if (TITLE_NAME.test(name)) return 1;
    return undefined;
  }
  // A style referenced but not defined: Word's IDs are the name without spaces or non-ASCII letters.
  const heading = HEADING_ID.exec(id);
  if (heading?.[1]) return Math.min(Number(heading[1]), 6);
  if (TITLE_NAME.test(id)) return 1;
  return undefined;
}

export function readStyleFacts(stylesXml: string | undefined, documentXml: string): StyleFacts {
  const { paragraphStyles: styles, slim } = scanStyles(stylesXml);
  const styleMap: string[] = [];
  const headingStyles: HeadingStyles = { headings: new Set(), numbering: new Map() };
  for (const id of usedParagraphStyles(documentXml)) {
    const style = styles.get(id);
    const selector = `p.${styleMapIdentifier(id)}`;
    const numId = inherited(styles, id, (s) => s.numId);
    if (numId !== undefined) headingStyles.numbering.set(id, { numId, level: inherited(styles, id, (s) => s.numLevel) });
    const level = headingLevelFor(style, id, styles);
    if (level !== undefined) {
      styleMap.push(`${selector} => h${level}:fresh`);
      headingStyles.headings.add(id);
      continue;
    }
    const name = style?.name ?? '';
    if (QUOTE_NAME.test(name)) styleMap.push(`${selector} => blockquote > p:fresh`);
    else if (CODE_NAME.test(name)) styleMap.push(`${selector} => pre:separator('\\n')`);
  }
  return { styleMap, headingStyles, language: readDefaultLanguage(stylesXml), slimStylesXml: slim };
}
