/** Character formatting of RTF text (group-scoped) and its rendering as the intermediate vocabulary. */
import { escapeHtml } from '../../document.ts';

export interface CharFormat {
  readonly bold: boolean;
  readonly italic: boolean;
  readonly strike: boolean;
  readonly sup: boolean;
  readonly sub: boolean;
  /** Hidden text (`\v`): not shown. */
  readonly hidden: boolean;
  /** Target of the HYPERLINK field whose result this text is. */
  readonly href?: string | undefined;
}

export const PLAIN: CharFormat = { bold: false, italic: false, strike: false, sup: false, sub: false, hidden: false };

/** A piece of paragraph content: text in one format, a line break, or a picture placeholder. */
export type Run = { kind: 'text'; text: string; readonly format: CharFormat } | { kind: 'break' } | { kind: 'image' };

function sameFormat(a: CharFormat, b: CharFormat): boolean {
  return a.bold === b.bold && a.italic === b.italic && a.strike === b.strike && a.sup === b.sup && a.sub === b.sub && a.href === b.href;
}

function wrap(html: string, format: CharFormat): string {
  let out = html;
  if (format.sup) out = `<sup>${out}</sup>`;
  else if (format.sub) out = `<sub>${out}</sub>`;
  if (format.strike) out = `<s>${out}</s>`;
  if (format.italic) out = `<em>${out}</em>`;
  if (format.bold) out = `<strong>${out}</strong>`;
  return out;
}

/** Whether the runs hold nothing visible. */
export function runsAreEmpty(runs: readonly Run[]): boolean {
  for (const run of runs) {
    if (run.kind === 'image') return false;
    if (run.kind === 'text' && run.text.trim() !== '') return false;
  }
  return true;
}

/**
 * Runs → inline HTML: neighbouring runs in the same format are merged, formatting that only
 * covers white space is dropped, a link wraps its formatted text.
 */
export function renderRuns(runs: readonly Run[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < runs.length) {
    const run = runs[i] as Run;
    if (run.kind === 'break') {
      out.push('<br>');
      i++;
      continue;
    }
    if (run.kind === 'image') {
      out.push('<img alt="Image">');
      i++;
      continue;
    }
    const parts: string[] = [run.text];
    let j = i + 1;
    for (; j < runs.length; j++) {
      const next = runs[j] as Run;
      if (next.kind !== 'text' || !sameFormat(next.format, run.format)) break;
      parts.push(next.text);
    }
    const text = parts.join('');
    const escaped = escapeHtml(text);
    const formatted = text.trim() === '' ? escaped : wrap(escaped, run.format);
    const href = run.format.href;
    out.push(href ? `<a href="${escapeHtml(href)}">${formatted}</a>` : formatted);
    i = j;
  }
  return out.join('');
}
