/**
 * Text boxes and shapes' text in the main story, read once, at their anchor.
 *
 * mammoth reads `mc:AlternateContent` through its `mc:Fallback` only (the VML copy Word writes
 * beside a DrawingML shape, `w:pict` → `v:textbox` → `w:txbxContent`), and a bare DrawingML
 * drawing (`w:drawing` → `wps:txbx` → `w:txbxContent`, as written without a VML copy) only for
 * its pictures: such text boxes were lost. Two rewrites, before mammoth reads the part:
 * - an `mc:AlternateContent` with no `mc:Fallback` has its first `mc:Choice` read as the
 *   fallback (ECMA-376 Part 3 §10.2: one branch is chosen, never both);
 * - each `w:txbxContent` of a drawing moves out of it into a `w:pict` right after the drawing,
 *   where mammoth reads it as it reads a VML text box: its paragraphs follow the paragraph
 *   holding the anchor. Pictures stay in the drawing.
 */
import { elementRanges, outermostRanges, replaceRanges, type ElementRange } from './markup-scan.ts';

const MARKUP = /<(\/?)(mc:AlternateContent|mc:Choice|mc:Fallback)(?=[\s/>])[^>]*?(\/?)>/g;

interface Branches {
  fallback: boolean;
  /** The first choice's open and close tag ranges. */
  choice?: { open: [number, number]; close: [number, number] };
}

/** `mc:AlternateContent` elements without a fallback read their first choice instead. */
export function choiceWithoutFallback(xml: string): string {
  if (!xml.includes('<mc:AlternateContent')) return xml;
  const stack: { name: string; branches?: Branches; openTag?: [number, number] }[] = [];
  const renames: [number, number, string][] = [];
  for (const match of xml.matchAll(MARKUP)) {
    const name = match[2] as string;
    const span: [number, number] = [match.index, match.index + match[0].length];
    if (match[3] === '/') continue;
    if (match[1] !== '/') {
      const parent = stack[stack.length - 1];
      if (name === 'mc:Fallback' && parent?.branches) parent.branches.fallback = true;
      stack.push(name === 'mc:AlternateContent' ? { name, branches: { fallback: false } } : { name, openTag: span });
      continue;
    }
    const closed = stack.pop();
    if (!closed || closed.name !== name) return xml; // unbalanced: leave the part as it is
    const parent = stack[stack.length - 1];
    if (name === 'mc:Choice' && parent?.branches && !parent.branches.choice && closed.openTag) {
      parent.branches.choice = { open: closed.openTag, close: span };
    }
    const choice = closed.branches?.choice;
    if (name === 'mc:AlternateContent' && closed.branches && !closed.branches.fallback && choice) {
      renames.push([choice.open[0], choice.open[1], '<mc:Fallback>'], [choice.close[0], choice.close[1], '</mc:Fallback>']);
    }
  }
  if (renames.length === 0) return xml;
  renames.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let last = 0;
  for (const [start, end, text] of renames) {
    parts.push(xml.slice(last, start), text);
    last = end;
  }
  parts.push(xml.slice(last));
  return parts.join('');
}

function withoutRanges(xml: string, ranges: readonly ElementRange[]): string {
  return replaceRanges(xml, ranges, () => '');
}

/** Each drawing's text box content moved into a `w:pict` after the drawing (nested boxes too). */
export function drawingTextBoxes(xml: string): string {
  if (!xml.includes('<w:drawing') || !xml.includes('<w:txbxContent')) return xml;
  const drawings = outermostRanges(xml, 'w:drawing').filter((range) => range.closeStart > range.openEnd);
  return replaceRanges(xml, drawings, (range) => {
    const drawing = xml.slice(range.start, range.end);
    const boxes = elementRanges(drawing, 'w:txbxContent').filter((box) => box.depth === 0 && box.closeStart > box.openEnd);
    if (boxes.length === 0) return drawing;
    const contents = boxes.map((box) => `<w:txbxContent>${drawingTextBoxes(drawing.slice(box.openEnd, box.closeStart))}</w:txbxContent>`);
    return `${withoutRanges(drawing, boxes)}<w:pict>${contents.join('')}</w:pict>`;
  });
}
