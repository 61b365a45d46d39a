/**
 * Balanced element ranges in a WordprocessingML part, found in its text (the story patches work
 * on text so that mammoth reads the part exactly as written, apart from what they change).
 * Elements of one name may nest (a text box inside a text box): ranges are matched with a stack.
 */

export interface ElementRange {
  /** Offset of `<name`. */
  start: number;
  /** Offset just past the opening tag's `>`. */
  openEnd: number;
  /** Offset of `</name>` (equal to `end` for a self-closing element). */
  closeStart: number;
  /** Offset just past the element. */
  end: number;
  /** How many elements of the same name enclose this one. */
  depth: number;
}

function escapeName(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every element named `name`, in document order of their start tags. Unbalanced tags are ignored. */
export function elementRanges(xml: string, name: string): ElementRange[] {
  const tag = new RegExp(`<(/?)${escapeName(name)}(?=[\\s/>])[^>]*?(/?)>`, 'g');
  const ranges: ElementRange[] = [];
  const open: { start: number; openEnd: number; index: number }[] = [];
  for (const match of xml.matchAll(tag)) {
    const start = match.index;
    const end = start + match[0].length;
    if (match[1] === '/') {
      const opened = open.pop();
      if (!opened) continue;
      ranges[opened.index] = { start: opened.start, openEnd: opened.openEnd, closeStart: start, end, depth: open.length };
    } else if (match[2] === '/') {
      ranges.push({ start, openEnd: end, closeStart: end, end, depth: open.length });
    } else {
      open.push({ start, openEnd: end, index: ranges.length });
      ranges.push({ start, openEnd: end, closeStart: end, end, depth: -1 });
    }
  }
  return ranges.filter((range) => range.depth >= 0);
}

/** The outermost elements named `name`. */
export function outermostRanges(xml: string, name: string): ElementRange[] {
  return elementRanges(xml, name).filter((range) => range.depth === 0);
}

/** Replaces each range (non-overlapping, in order) by what `replace` returns for it. */
export function replaceRanges(xml: string, ranges: readonly ElementRange[], replace: (range: ElementRange) => string): string {
  if (ranges.length === 0) return xml;
  const parts: string[] = [];
  let last = 0;
  for (const range of ranges) {
    parts.push(xml.slice(last, range.start), replace(range));
    last = range.end;
  }
  parts.push(xml.slice(last));
  return parts.join('');
}
