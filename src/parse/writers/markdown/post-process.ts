/**
 * Final layout of the markdown: whitespace-only lines emptied, hard breaks that end a block
 * removed, runs of blank lines collapsed to one, the whole trimmed. Fenced code blocks are left
 * exactly as they are (blank lines in code are content).
 */
import { resolveLineStartMarks } from './escape.ts';

const FENCE_OPEN = /^[ \t>]*(`{3,})[^`\s]*$/;
const QUOTE_OR_SPACE_ONLY = /^[\s>]*$/;
const LIST_ITEM = /^[ \t]*(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;

export function postProcess(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence = '';
  /** Whether the last non-blank line belongs to a list (an item or an indented continuation). */
  let inList = false;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] as string;
    if (fence !== '') {
      out.push(line);
      const body = line.replace(/^[ \t>]*/, '').trimEnd();
      if (body.length >= fence.length && /^`+$/.test(body)) fence = '';
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open?.[1]) {
      fence = open[1];
      out.push(line);
      continue;
    }
    if (QUOTE_OR_SPACE_ONLY.test(line)) {
      // A blank line (or a blank line inside a blockquote): keep one of a run.
      const blank = line.replace(/\s/g, '');
      const prev = out[out.length - 1];
      if (prev !== undefined && QUOTE_OR_SPACE_ONLY.test(prev) && prev === blank) continue;
      if (prev === undefined && blank === '') continue;
      out.push(blank);
      continue;
    }
    line = resolveLineStartMarks(line);
    // Leading whitespace is structure only inside a list (item nesting and continuation, two or
    // more spaces). Anywhere else it is leftover inline whitespace (next to images, dropped
    // controls, …), and four spaces would even turn the line into a code block.
    // (ASCII only: an ideographic space opening a CJK paragraph is text.)
    if (/^[ \t]/.test(line) && (!inList || !line.startsWith('  '))) line = line.replace(/^[ \t]+/, '');
    inList = LIST_ITEM.test(line) || (inList && /^[ \t]/.test(line));
    const next = lines[i + 1];
    // A hard break ("  ") before a blank line or the end means nothing: drop it.
    out.push(next === undefined || QUOTE_OR_SPACE_ONLY.test(next) ? line.trimEnd() : line);
  }
  while (out.length > 0 && QUOTE_OR_SPACE_ONLY.test(out[out.length - 1] as string)) out.pop();
  return out.join('\n');
}
