/**
 * Final layout of the markdown: whitespace-only lines emptied, hard breaks that end a block
 * removed, runs of blank lines collapsed to one, the whole trimmed. Fenced code blocks are left
 * exactly as they are (blank lines in code are content).
 */
import { resolveLineStartMarks } from './escape.ts';

const FENCE_OPEN = /^[ \t>]*(`{3,})[^`\s]*$/;
const QUOTE_OR_SPACE_ONLY = /^[\s>]*$/;

export function postProcess(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence = '';
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
    // One leading space is never structure here (list indents are two or more): it is leftover
    // inline whitespace, e.g. after a dropped form control.
    if (line.startsWith(' ') && !line.startsWith('  ')) line = line.slice(1);
    const next = lines[i + 1];
    // A hard break ("  ") before a blank line or the end means nothing: drop it.
    out.push(next === undefined || QUOTE_OR_SPACE_ONLY.test(next) ? line.trimEnd() : line);
  }
  while (out.length > 0 && QUOTE_OR_SPACE_ONLY.test(out[out.length - 1] as string)) out.pop();
  return out.join('\n');
}
