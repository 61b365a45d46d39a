/**
 * Heading numbers (ECMA-376 §17.9 numbering). Word draws "2.1 Scope" from a multilevel list
 * attached to the heading — by the paragraph or, usually, by its style — and the number is not
 * in the text; mammoth renders numbered paragraphs as list items and headings without their
 * number, so cross-references ("see 4.2") lose their target. This computes the numbers in
 * document order (every numbered paragraph advances the counters it shares) and writes each
 * heading's number into its paragraph as text before mammoth reads it. Lists keep mammoth's
 * `<ol>`/`<ul>`.
 */
import { decodeXmlEntities, xmlAttribute } from './xml.ts';

interface Level {
  start: number;
  format: string;
  text: string;
  legal: boolean;
  paragraphStyle: string | undefined;
}

interface NumberingInstance {
  abstractId: string;
  startOverrides: Map<number, number>;
}

export interface Numbering {
  instances: Map<string, NumberingInstance>;
  abstracts: Map<string, Map<number, Level>>;
}

/** Numbering a paragraph style carries (`w:pPr/w:numPr`), after basedOn inheritance. */
export interface StyleNumbering {
  numId: string | undefined;
  level: number | undefined;
}

function value(inner: string, name: string): string | undefined {
  const tag = new RegExp(`<${name}\\b[^>]*>`).exec(inner)?.[0];
  const raw = tag ? xmlAttribute(tag, 'w:val') : undefined;
  return raw === undefined ? undefined : decodeXmlEntities(raw);
}

function integer(text: string | undefined, fallback: number): number {
  return text !== undefined && /^-?\d+$/.test(text) ? Number(text) : fallback;
}

function readLevels(inner: string): Map<number, Level> {
  const levels = new Map<number, Level>();
  for (const match of inner.matchAll(/<w:lvl\b([^>]*)>([\s\S]*?)<\/w:lvl>/g)) {
    const index = integer(xmlAttribute(`<x ${match[1] ?? ''}>`, 'w:ilvl'), -1);
    if (index < 0 || index > 8) continue;
    const body = match[2] ?? '';
    levels.set(index, {
      start: integer(value(body, 'w:start'), 1),
      format: value(body, 'w:numFmt') ?? 'decimal',
      text: value(body, 'w:lvlText') ?? '',
      legal: /<w:isLgl\b(?![^>]*w:val="(?:0|false|off)")/.test(body),
      paragraphStyle: value(body, 'w:pStyle'),
    });
  }
  return levels;
}

export function readNumbering(numberingXml: string | undefined): Numbering {
  const numbering: Numbering = { instances: new Map(), abstracts: new Map() };
  if (!numberingXml) return numbering;
  for (const match of numberingXml.matchAll(/<w:abstractNum\b([^>]*)>([\s\S]*?)<\/w:abstractNum>/g)) {
    const id = xmlAttribute(`<x ${match[1] ?? ''}>`, 'w:abstractNumId');
    if (id !== undefined) numbering.abstracts.set(id, readLevels(match[2] ?? ''));
  }
  for (const match of numberingXml.matchAll(/<w:num\b([^>]*)>([\s\S]*?)<\/w:num>/g)) {
    const id = xmlAttribute(`<x ${match[1] ?? ''}>`, 'w:numId');
    const body = match[2] ?? '';
    const abstractId = value(body, 'w:abstractNumId');
    if (id === undefined || abstractId === undefined) continue;
    const startOverrides = new Map<number, number>();
    for (const override of body.matchAll(/<w:lvlOverride\b([^>]*)>([\s\S]*?)<\/w:lvlOverride>/g)) {
      const level = integer(xmlAttribute(`<x ${override[1] ?? ''}>`, 'w:ilvl'), -1);
      const start = value(override[2] ?? '', 'w:startOverride');
      if (level >= 0 && start !== undefined) startOverrides.set(level, integer(start, 1));
    }
    numbering.instances.set(id, { abstractId, startOverrides });
  }
  return numbering;
}

function letters(n: number): string {
  // Word repeats the letter: a … z, aa … zz, aaa …
  if (n < 1) return '';
  const letter = String.fromCharCode(97 + ((n - 1) % 26));
  return letter.repeat(Math.floor((n - 1) / 26) + 1);
}

function roman(n: number): string {
  if (n < 1 || n > 3999) return String(n);
  const table: [number, string][] = [
    [1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i'],
  ];
  let out = '';
  for (const [amount, digits] of table) {
    while (n >= amount) {
      out += digits;
      n -= amount;
    }
  }
  return out;
}

function formatNumber(n: number, format: string): string {
  switch (format) {
    case 'lowerLetter':
      return letters(n);
    case 'upperLetter':
      return letters(n).toUpperCase();
    case 'lowerRoman':
      return roman(n);
    case 'upperRoman':
      return roman(n).toUpperCase();
    case 'decimalZero':
      return n < 10 ? `0${n}` : String(n);
    case 'none':
      return '';
    default:
      return String(n);
  }
}

/** Finds the end of the `w:pPr` starting at `from` (it may hold a `w:pPrChange` with its own pPr). */
function endOfParagraphProperties(xml: string, from: number): number {
  const token = /<w:pPr\b[^>]*\/>|<w:pPr\b[^>]*>|<\/w:pPr>/g;
  token.lastIndex = from;
  let depth = 0;
  for (let match = token.exec(xml); match; match = token.exec(xml)) {
    if (match[0].endsWith('/>')) continue;
    if (match[0].startsWith('</')) {
      depth--;
      if (depth === 0) return match.index + match[0].length;
    } else {
      depth++;
    }
  }
  return -1;
}

export interface HeadingStyles {
  /** Paragraph styles that become headings. */
  headings: Set<string>;
  /** Numbering carried by paragraph styles. */
  numbering: Map<string, StyleNumbering>;
}

/** document.xml with the number of each numbered heading written at the start of its text. */
export function numberHeadings(documentXml: string, numbering: Numbering, styles: HeadingStyles): string {
  if (numbering.instances.size === 0 || styles.headings.size === 0) return documentXml;
  const counters = new Map<string, number[]>();
  const startedInstances = new Set<string>();
  const parts: string[] = [];
  let last = 0;
  for (const match of documentXml.matchAll(/<w:p\b[^>]*>\s*<w:pPr\b[^>]*>/g)) {
    if (match[0].endsWith('/>')) continue;
    const propertiesStart = match.index + match[0].lastIndexOf('<w:pPr');
    const end = endOfParagraphProperties(documentXml, propertiesStart);
    if (end === -1) break;
    const properties = documentXml.slice(propertiesStart, end);
    const styleId = value(properties, 'w:pStyle');
    const styleNumbering = styleId ? styles.numbering.get(styleId) : undefined;
    const numPr = /<w:numPr\b[^>]*>([\s\S]*?)<\/w:numPr>/.exec(properties)?.[1];
    const numId = (numPr ? value(numPr, 'w:numId') : undefined) ?? styleNumbering?.numId;
    if (numId === undefined || numId === '0') continue;
    const instance = numbering.instances.get(numId);
    const levels = instance ? numbering.abstracts.get(instance.abstractId) : undefined;
    if (!instance || !levels) continue;
    let level = integer(numPr ? value(numPr, 'w:ilvl') : undefined, -1);
    if (level < 0) level = styleNumbering?.level ?? -1;
    if (level < 0) level = [...levels].find(([, l]) => l.paragraphStyle !== undefined && l.paragraphStyle === styleId)?.[0] ?? 0;
    const definition = levels.get(level);
    if (!definition) continue;

    const counter = counters.get(instance.abstractId) ?? [];
    counters.set(instance.abstractId, counter);
    if (!startedInstances.has(numId)) {
      startedInstances.add(numId);
      for (const [overridden, start] of instance.startOverrides) counter[overridden] = start - 1;
    }
    // A level skipped on the way down counts as its start value, as Word shows it (2 → 2.1.1).
    for (let shallower = 0; shallower < level; shallower++) counter[shallower] ??= levels.get(shallower)?.start ?? 1;
    counter[level] = (counter[level] ?? definition.start - 1) + 1;
    // A deeper level starts again under a new item of this one.
    counter.length = level + 1;

    if (!styleId || !styles.headings.has(styleId) || definition.format === 'bullet') continue;
    const label = definition.text.replace(/%([1-9])/g, (_, digit: string) => {
      const index = Number(digit) - 1;
      const n = counter[index] ?? 1;
      return formatNumber(n, definition.legal ? 'decimal' : (levels.get(index)?.format ?? 'decimal'));
    });
    if (label.trim() === '') continue;
    const escaped = label.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
    parts.push(documentXml.slice(last, end), `<w:r><w:t xml:space="preserve">${escaped} </w:t></w:r>`);
    last = end;
  }
  if (last === 0) return documentXml;
  parts.push(documentXml.slice(last));
  return parts.join('');
}
