/**
 * Rewrites of a story part (document, footnotes, endnotes) that mammoth reads, so that it keeps
 * text it would otherwise drop: simple fields, drop-down results and text inside field codes (fields.ts), text boxes without a VML copy
 * (text-boxes.ts), and runs inside bidirectional wrappers (`w:dir`, `w:bdo`, ECMA-376 Part 1
 * §17.3.2.8 and §17.3.2.3: direction only, their runs are ordinary text), which mammoth does
 * not know and skips with their content. Tracked changes need no rewrite: mammoth keeps
 * insertions (`w:ins`, `w:moveTo`) and drops deletions (`w:del`, `w:moveFrom`, deleted
 * paragraph marks and table rows), which is the accepted text.
 */
import { dropDownResults, simpleFieldsAsComplex, withoutCodeText } from './fields.ts';
import { choiceWithoutFallback, drawingTextBoxes } from './text-boxes.ts';

const BIDI_WRAPPER = /<\/?w:(?:dir|bdo)(?=[\s/>])[^>]*>/g;

export function unwrapBidiWrappers(xml: string): string {
  if (!xml.includes('<w:dir') && !xml.includes('<w:bdo')) return xml;
  return xml.replace(BIDI_WRAPPER, '');
}

export function patchStory(xml: string): string {
  // Code text goes before drop-down results are written in (a drop-down may have no `separate`).
  return dropDownResults(withoutCodeText(simpleFieldsAsComplex(drawingTextBoxes(choiceWithoutFallback(unwrapBidiWrappers(xml))))));
}
