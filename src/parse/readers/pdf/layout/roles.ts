/**
 * Tagged PDF (ISO 32000-1 §14.8): what the author's structure says about a line or a block. The
 * extraction gives every word the standard structure type of its block (`Word.role`) and marks
 * artifacts (`Word.artifact`, §14.8.2.2); layout takes them as strong evidence over what the type
 * suggests. Untagged documents carry neither and are read from typography alone.
 */
import type { Word } from '../page-model.ts';

/** Share of a line's or block's characters a role must carry to be the role of the whole. */
const MOSTLY = 0.6;

/**
 * Block-level structure types (§14.8.4.3) that say the text is not a heading, however large or
 * bold it is set: list items, table cells, captions, notes, figure labels, contents entries,
 * formulas.
 */
const NOT_HEADING = new Set(['LI', 'L', 'TD', 'TH', 'TR', 'Table', 'THead', 'TBody', 'TFoot', 'Caption', 'Note', 'Figure', 'Formula', 'TOC', 'TOCI', 'Form']);
/**
 * Paragraph types: no heading in a document whose author tagged headings (so a large P is a
 * deliberate paragraph); a document tagged without any heading (everything P, as some tagging
 * tools do) says nothing about headings, and the type decides.
 */
const PARAGRAPH = new Set(['P', 'BlockQuote']);

interface HasWords {
  words: readonly Word[];
}

/** The role most characters of these words carry, when most do (`MOSTLY`); else undefined. */
export function roleOfWords(words: readonly Word[]): string | undefined {
  let total = 0;
  let first: string | undefined;
  const chars = new Map<string, number>();
  for (const w of words) {
    total += w.text.length;
    if (w.role === undefined) continue;
    first ??= w.role;
    chars.set(w.role, (chars.get(w.role) ?? 0) + w.text.length);
  }
  if (first === undefined) return undefined;
  let role = first;
  for (const [r, n] of chars) if (n > (chars.get(role) ?? 0)) role = r;
  return (chars.get(role) ?? 0) >= MOSTLY * total ? role : undefined;
}

/** The role of a block: that of most characters of its lines. */
export function blockRole(lines: readonly HasWords[]): string | undefined {
  return roleOfWords(lines.flatMap((l) => l.words));
}

/** Most characters of these lines are marked as artifacts. */
export function mostlyArtifact(lines: readonly HasWords[]): boolean {
  let total = 0;
  let marked = 0;
  for (const l of lines) {
    for (const w of l.words) {
      total += w.text.length;
      if (w.artifact) marked += w.text.length;
    }
  }
  return total > 0 && marked >= MOSTLY * total;
}

/**
 * The heading level a role gives (§14.8.4.3.2): 'H1'…'H6' their number, 'Title' 1, 'H' 0 (a
 * heading whose level the type decides); undefined for any other role.
 */
export function headingRoleLevel(role: string | undefined): number | undefined {
  if (role === undefined) return undefined;
  if (role === 'Title') return 1;
  if (role === 'H') return 0;
  const m = /^H([1-6])$/u.exec(role);
  return m ? Number(m[1]) : undefined;
}

/**
 * The role says the block is body text of some kind (an item, a cell, a caption…, or a paragraph
 * when the document tags its headings).
 */
export function notHeadingRole(role: string | undefined, { headingsTagged }: { headingsTagged: boolean }): boolean {
  return role !== undefined && (NOT_HEADING.has(role) || (headingsTagged && PARAGRAPH.has(role)));
}

/**
 * Two neighbouring words or lines belong to different structure elements: both carry roles and
 * they differ, or one is an artifact and the other is not.
 */
export function otherStructure(a: { role?: string | undefined; artifact?: boolean | undefined }, b: { role?: string | undefined; artifact?: boolean | undefined }): boolean {
  if ((a.artifact ?? false) !== (b.artifact ?? false)) return true;
  if (a.role === undefined || b.role === undefined || a.role === b.role) return false;
  return !RUN_IN.has(a.role) && !RUN_IN.has(b.role);
}

/**
 * Block-level types that producers also place inside a paragraph's line (an inline formula or
 * graphic, a note at its reference mark): they do not end the line or the paragraph around them.
 */
const RUN_IN = new Set(['Formula', 'Figure', 'Note']);
