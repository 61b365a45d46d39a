/**
 * Heading lines of a Markdown output and the text match the outside heading benches share
 * (bench/pdf/headings.ts on docling's PDFs, bench/pdf/printed.ts on printed web pages).
 *
 * A heading matches another when their letters and digits (case folded) are the same, one holds
 * the other and is at least 0.6 of its length, or they share 85 % of their characters in any
 * order (docling writes "들어가며 1" for the page's "1 들어가며", and reads some right-to-left
 * lines backwards). Each line matches at most once, in the reference's order.
 */
import { sharedCount } from './multiset.ts';

export interface Heading {
  level: number;
  text: string;
}

/** The `#` … `######` lines of a Markdown text, in order; a `# comment` inside a fenced listing is none. */
export function headingsOf(markdown: string): Heading[] {
  const heads: Heading[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const mark = /^ {0,3}(`{3,}|~{3,})/u.exec(line)?.[1];
    if (mark !== undefined && (fence === undefined || (mark[0] === fence[0] && mark.length >= fence.length && line.trim() === mark))) {
      fence = fence === undefined ? mark : undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const m = /^(#{1,6})\s+(.*)$/u.exec(line);
    if (m) heads.push({ level: (m[1] as string).length, text: (m[2] as string).trim() });
  }
  return heads;
}

const letters = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

export function sameHeading(a: string, b: string): boolean {
  const x = letters(a);
  const y = letters(b);
  if (x === '' || y === '') return false;
  if (x === y) return true;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  if (long.includes(short) && short.length >= 0.6 * long.length) return true;
  return sharedCount(y, x) >= 0.85 * Math.max(x.length, y.length);
}

export interface HeadingMatch {
  /** For each reference heading, the index of the found heading it matched, or -1 (missed). */
  matchOf: number[];
  /** Indexes of found headings no reference heading matched (extra). */
  extra: number[];
}

/** Greedy in the reference's order: each reference heading takes the first unused found one. */
export function matchHeadings(reference: readonly Heading[], found: readonly Heading[]): HeadingMatch {
  const used = new Set<number>();
  const matchOf = reference.map((r) => {
    const i = found.findIndex((g, k) => !used.has(k) && sameHeading(g.text, r.text));
    if (i >= 0) used.add(i);
    return i;
  });
  const extra = found.map((_, k) => k).filter((k) => !used.has(k));
  return { matchOf, extra };
}
