/**
 * Fields in the main story, shown as Word displays them: their cached result, never their code
 * (ECMA-376 Part 1 §17.16). mammoth reads complex fields (`w:fldChar` begin/separate/end around
 * `w:instrText`: the code is dropped, the result kept, HYPERLINK results become links,
 * FORMCHECKBOX a checkbox) but drops a simple field (`w:fldSimple`, §17.16.19) with its result.
 * So each simple field is rewritten as the equivalent complex field before mammoth reads the
 * part: same code, same result runs, nested simple fields too.
 */
import { elementRanges, replaceRanges } from './markup-scan.ts';
import { xmlAttribute } from './xml.ts';

function fieldChar(type: 'begin' | 'separate' | 'end'): string {
  return `<w:r><w:fldChar w:fldCharType="${type}"/></w:r>`;
}

function rewriteSimpleFields(xml: string): string {
  const ranges = elementRanges(xml, 'w:fldSimple').filter((range) => range.depth === 0);
  return replaceRanges(xml, ranges, (range) => {
    const openTag = xml.slice(range.start, range.openEnd);
    // A simple field without content has no cached result: Word shows nothing until updated.
    if (range.closeStart === range.end) return '';
    const result = rewriteSimpleFields(xml.slice(range.openEnd, range.closeStart));
    // The attribute as written: its entities are valid in element text too.
    const instruction = xmlAttribute(openTag, 'w:instr') ?? '';
    return `${fieldChar('begin')}<w:r><w:instrText xml:space="preserve">${instruction}</w:instrText></w:r>${fieldChar('separate')}${result}${fieldChar('end')}`;
  });
}

/** The part with every `w:fldSimple` rewritten as a complex field holding the same result. */
export function simpleFieldsAsComplex(xml: string): string {
  if (!xml.includes('<w:fldSimple')) return xml;
  return rewriteSimpleFields(xml);
}

