/**
 * ODF styles (ODF 1.2 Part 1 §16): common styles from styles.xml, automatic styles from the part
 * being read (content.xml, or styles.xml for headers and footers). A style's effective
 * properties come from its parent chain (`style:parent-style-name`); folio needs only a few:
 * bold, italic, strike-through, super/subscript, the heading level a paragraph style implies
 * (`style:default-outline-level`, or a Heading N / Title style in its chain), and the list style
 * a paragraph style names. List styles (`text:list-style`) say per level whether items are
 * numbered (`text:list-level-style-number` with a number format) or bulleted.
 */
import { attr } from './xml.ts';

export interface TextFormat {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  position?: 'sup' | 'sub';
}

interface StyleEntry {
  parent?: string;
  displayName?: string;
  format: TextFormat;
  outlineLevel?: number;
  listStyle?: string;
}

export interface ParagraphFacts {
  format: TextFormat;
  headingLevel?: number;
  listStyle?: string;
}

const MAX_CHAIN = 32;
const HEADING_NAME = /^heading(?:[ _]|_20_)(\d{1,2})$/i;

function readFormat(props: Element | undefined): TextFormat {
  const format: TextFormat = {};
  if (!props) return format;
  const weight = attr(props, 'fo:font-weight');
  if (weight !== undefined) format.bold = weight === 'bold' || (/^\d+$/.test(weight) && parseInt(weight, 10) >= 600);
  const style = attr(props, 'fo:font-style');
  if (style !== undefined) format.italic = style === 'italic' || style === 'oblique';
  const through = attr(props, 'style:text-line-through-style');
  if (through !== undefined) format.strike = through !== 'none';
  const position = attr(props, 'style:text-position');
  if (position !== undefined) {
    const first = position.trim().split(/\s+/)[0] ?? '';
    if (first === 'super' || (/^\d/.test(first) && parseFloat(first) > 0)) format.position = 'sup';
    else if (first === 'sub' || (first.startsWith('-') && parseFloat(first) < 0)) format.position = 'sub';
  }
  return format;
}

function textPropertiesOf(style: Element): Element | undefined {
  for (const child of Array.from(style.children)) {
    if (child.tagName === 'style:text-properties') return child;
  }
  return undefined;
}

type ListKind = 'ol' | 'ul';

export class StyleSheet {
  private readonly styles = new Map<string, StyleEntry>();
  private readonly lists = new Map<string, Map<number, ListKind>>();
  language: string | undefined;

  /** Adds the styles of one container (`office:styles` or `office:automatic-styles`); later additions win. */
  add(container: Element | undefined): void {
    if (!container) return;
    for (const child of Array.from(container.children)) {
      if (child.tagName === 'style:style') this.addStyle(child);
      else if (child.tagName === 'text:list-style') this.addListStyle(child);
      else if (child.tagName === 'style:default-style' && attr(child, 'style:family') === 'paragraph') this.addDefaults(child);
    }
  }

  private addStyle(style: Element): void {
    const name = attr(style, 'style:name');
    const family = attr(style, 'style:family');
    if (!name || !family) return;
    const levelText = attr(style, 'style:default-outline-level');
    const level = levelText && /^\d{1,2}$/.test(levelText) ? parseInt(levelText, 10) : undefined;
    const entry: StyleEntry = { format: readFormat(textPropertiesOf(style)) };
    const parent = attr(style, 'style:parent-style-name');
    if (parent) entry.parent = parent;
    const displayName = attr(style, 'style:display-name');
    if (displayName) entry.displayName = displayName;
    if (level !== undefined && level > 0) entry.outlineLevel = level;
    const listStyle = attr(style, 'style:list-style-name');
    if (listStyle) entry.listStyle = listStyle;
    this.styles.set(`${family}\u0000${name}`, entry);
  }

  private addListStyle(list: Element): void {
    const name = attr(list, 'style:name');
    if (!name) return;
    const levels = new Map<number, ListKind>();
    for (const level of Array.from(list.children)) {
      const number = parseInt(attr(level, 'text:level') ?? '', 10);
      if (!Number.isInteger(number)) continue;
      const numbered = level.tagName === 'text:list-level-style-number' && (attr(level, 'style:num-format') ?? '') !== '';
      levels.set(number, numbered ? 'ol' : 'ul');
    }
    this.lists.set(name, levels);
  }

  private addDefaults(style: Element): void {
    const props = textPropertiesOf(style);
    const language = props ? attr(props, 'fo:language') : undefined;
    if (!props || !language || !/^[A-Za-z]{2,8}$/.test(language)) return;
    const country = attr(props, 'fo:country');
    this.language = country && /^[A-Za-z0-9]{2,3}$/.test(country) ? `${language}-${country}` : language;
  }

  /** Effective text format of a style, its parents' properties filled in. */
  textFormat(name: string | undefined, family: 'text' | 'paragraph'): TextFormat {
    return this.paragraphWalk(name, family).format;
  }

  paragraph(name: string | undefined): ParagraphFacts {
    return this.paragraphWalk(name, 'paragraph');
  }

  private paragraphWalk(name: string | undefined, family: string): ParagraphFacts {
    const facts: ParagraphFacts = { format: {} };
    const format = facts.format;
    let current = name;
    for (let i = 0; current && i < MAX_CHAIN; i++) {
      const entry = this.styles.get(`${family}\u0000${current}`);
      if (facts.headingLevel === undefined) {
        const byName = HEADING_NAME.exec(current) ?? HEADING_NAME.exec(entry?.displayName ?? '');
        if (entry?.outlineLevel !== undefined) facts.headingLevel = entry.outlineLevel;
        else if (byName) facts.headingLevel = parseInt(byName[1] ?? '1', 10);
        else if (current === 'Title' || entry?.displayName === 'Title') facts.headingLevel = 1;
      }
      if (!entry) break;
      if (facts.listStyle === undefined && entry.listStyle) facts.listStyle = entry.listStyle;
      if (format.bold === undefined && entry.format.bold !== undefined) format.bold = entry.format.bold;
      if (format.italic === undefined && entry.format.italic !== undefined) format.italic = entry.format.italic;
      if (format.strike === undefined && entry.format.strike !== undefined) format.strike = entry.format.strike;
      if (format.position === undefined && entry.format.position !== undefined) format.position = entry.format.position;
      current = entry.parent;
    }
    if (facts.headingLevel !== undefined) facts.headingLevel = Math.min(6, Math.max(1, facts.headingLevel));
    return facts;
  }

  /** Whether items at a (1-based) level of a list style are numbered. */
  listKind(listStyle: string | undefined, level: number): ListKind {
    if (!listStyle) return 'ul';
    const levels = this.lists.get(listStyle);
    if (!levels) return 'ul';
    return levels.get(Math.min(level, 10)) ?? 'ul';
  }

  clone(): StyleSheet {
    const copy = new StyleSheet();
    for (const [key, value] of this.styles) copy.styles.set(key, value);
    for (const [key, value] of this.lists) copy.lists.set(key, value);
    copy.language = this.language;
    return copy;
  }
}

/** The common styles of styles.xml, and its automatic styles (for headers and footers). */
export function readStylesPart(stylesDoc: Document | undefined): { common: StyleSheet; furniture: StyleSheet; root: Element | undefined } {
  const common = new StyleSheet();
  const root = stylesDoc?.documentElement ?? undefined;
  if (!root) return { common, furniture: common, root: undefined };
  const container = (name: string): Element | undefined => Array.from(root.children).find((c) => c.tagName === name);
  common.add(container('office:styles'));
  const furniture = common.clone();
  furniture.add(container('office:automatic-styles'));
  return { common, furniture, root };
}
