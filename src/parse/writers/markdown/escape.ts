/**
 * Escaping of document text so that it reads back as the same text, not as markdown syntax.
 * Applied to every text node outside code (code keeps its characters).
 *
 * Compared with turndown's default escaper: an underscore inside a word (`snake_case`) is left
 * alone, since GFM never reads it as emphasis; `<` before a tag-like character is escaped so text
 * such as "&lt;div&gt;" cannot turn into raw HTML; `~~` is escaped (GFM strikethrough).
 */

/** Marks a possible line-start escape; U+FDD0 is a Unicode noncharacter, reserved for internal use. */
export const LINE_START_MARK = '\uFDD0';
const LINE_START = /^(?:-(?=\s|-|$)|\+(?=\s)|=+\s*$|#{1,6}(?=\s|$)|>|\d{1,9}[.)](?=\s|$))/;
const NEEDS_WORK = /[\\*`[\]_<~\uFDD0]|^[-+=#>\d]/;
const WORD_CHAR = /[\p{L}\p{N}]/u;

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch);
}

export function escapeMarkdownText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  let out = text
    .replace(/\uFDD0/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/\*/g, '\\*')
    .replace(/`/g, '\\`')
    .replace(/\[/g, '\\[')
    .replace(/\]/g, '\\]')
    .replace(/~~/g, '\\~\\~')
    .replace(/<(?=[A-Za-z/!?]|$)/g, '\\<');
  out = out.replace(/_/g, (_m, offset: number, whole: string) =>
    isWordChar(whole[offset - 1]) && isWordChar(whole[offset + 1]) ? '_' : '\\_',
  );
  // Line-start syntax ("- ", "1. ", "# ", ">", "+ ", "==="): only harmful at the start of a
  // line, which is not known here (a text node can follow other inline content). The text gets
  // a marker that postProcess turns into a backslash at a line start and drops elsewhere.
  // For "1. " the backslash goes before the dot: a backslash before a digit is not an escape.
  if (!LINE_START.test(out)) return out;
  const digits = /^\d*/.exec(out)?.[0] ?? '';
  return digits + LINE_START_MARK + out.slice(digits.length);
}

/** Everything a line can start with before its text: indentation, quote markers, list markers. */
const LINE_PREFIX_THEN_MARK = /^([ \t]*(?:>[ \t]?)*[ \t]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+(?:\[[ x]\][ \t]+)?)*\d*)\uFDD0/;

/** Resolves the line-start markers of one output line: a backslash at a line start, nothing elsewhere. */
export function resolveLineStartMarks(line: string): string {
  if (!line.includes(LINE_START_MARK)) return line;
  return line.replace(LINE_PREFIX_THEN_MARK, '$1\\').replace(/\uFDD0/g, '');
}
