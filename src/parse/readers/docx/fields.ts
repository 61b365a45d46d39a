/**
 * Fields in the main story, shown as Word displays them: their cached result, never their code
 * (ECMA-376 Part 1 §17.16). mammoth reads complex fields (`w:fldChar` begin/separate/end around
 * `w:instrText`: the code is dropped, the result kept, HYPERLINK results become links,
 * FORMCHECKBOX a checkbox) but drops a simple field (`w:fldSimple`, §17.16.19) with its result.
 * So each simple field is rewritten as the equivalent complex field before mammoth reads the
 * part: same code, same result runs, nested simple fields too.
 *
 * A drop-down form field (FORMDROPDOWN, §17.16.17 `w:ddList`) keeps no text result in the
 * file: Word shows the selected list entry (`w:result`, else `w:default`, else the first), so
 * that entry is written in as the field's result.
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


const FIELD_TOKEN = /<w:fldChar\b[^>]*?(?:\/>|>[\s\S]*?<\/w:fldChar>)|<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g;

/** The entry a drop-down form field shows, raw as written in the part. */
function selectedEntry(fldChar: string): string | undefined {
  const list = /<w:ddList\b[^>]*>([\s\S]*?)<\/w:ddList>/.exec(fldChar)?.[1];
  if (list === undefined) return undefined;
  const entries = [...list.matchAll(/<w:listEntry\b[^>]*>/g)].map((m) => xmlAttribute(m[0], 'w:val') ?? '');
  const chosen = /<w:result\b[^>]*>/.exec(list) ?? /<w:default\b[^>]*>/.exec(list);
  const index = chosen ? Number(xmlAttribute(chosen[0], 'w:val')) : 0;
  return entries[Number.isInteger(index) ? index : 0];
}

interface OpenField {
  entry: string | undefined;
  separated: boolean;
  shown: boolean;
}

/** The part with each drop-down form field's selected entry as its result. */
export function dropDownResults(xml: string): string {
  if (!xml.includes('<w:ddList')) return xml;
  const stack: OpenField[] = [];
  const inserts: [number, string][] = [];
  for (const match of xml.matchAll(FIELD_TOKEN)) {
    if (match[1] !== undefined) {
      const field = stack[stack.length - 1];
      if (field?.separated && match[1] !== '') field.shown = true;
      continue;
    }
    const type = xmlAttribute(/^<w:fldChar\b[^>]*>/.exec(match[0])?.[0] ?? '', 'w:fldCharType');
    if (type === 'begin') stack.push({ entry: selectedEntry(match[0]), separated: false, shown: false });
    else if (type === 'separate' && stack.length > 0) (stack[stack.length - 1] as OpenField).separated = true;
    else if (type === 'end') {
      const field = stack.pop();
      if (field?.entry && !field.shown) inserts.push([match.index, `<w:t xml:space="preserve">${field.entry}</w:t>`]);
    }
  }
  if (inserts.length === 0) return xml;
  const parts: string[] = [];
  let last = 0;
  for (const [at, text] of inserts) {
    parts.push(xml.slice(last, at), text);
    last = at;
  }
  parts.push(xml.slice(last));
  return parts.join('');
}

/**
 * The part without text written inside a field's code (between `begin` and `separate`, or
 * `end` when there is no result): the results of fields nested in an instruction, such as
 * `IF { MERGEFIELD x } = …`, are part of the code, not of what Word displays. mammoth reads
 * instruction text only from `w:instrText` and would show them. A part whose field characters
 * do not balance is left as it is rather than risk dropping the rest of the story.
 */
export function withoutCodeText(xml: string): string {
  if (!xml.includes('<w:fldChar')) return xml;
  const inCode: boolean[] = [];
  const drops: [number, number][] = [];
  for (const match of xml.matchAll(FIELD_TOKEN)) {
    if (match[1] !== undefined) {
      if (inCode.includes(true)) drops.push([match.index, match.index + match[0].length]);
      continue;
    }
    const type = xmlAttribute(/^<w:fldChar\b[^>]*>/.exec(match[0])?.[0] ?? '', 'w:fldCharType');
    if (type === 'begin') inCode.push(true);
    else if (type === 'separate') {
      if (inCode.length === 0) return xml;
      inCode[inCode.length - 1] = false;
    } else if (type === 'end') {
      if (inCode.pop() === undefined) return xml;
    }
  }
  if (inCode.length > 0 || drops.length === 0) return xml;
  const parts: string[] = [];
  let last = 0;
  for (const [start, end] of drops) {
    parts.push(xml.slice(last, start));
    last = end;
  }
  parts.push(xml.slice(last));
  return parts.join('');
}
