/**
 * One printed page's scores (bench/pdf/printed.ts): the engine's Markdown against the page's
 * truth (printed-truth.ts). Heading lines are matched as bench:headings matches them
 * (heading-match.ts); NID, TEDS, MHS and Overall are the pdf bench's own (metrics.ts) with the
 * truth's markdown as the reference.
 *
 * The engine's Markdown links are read as their text first: Chromium writes each `<a href>` as a
 * link annotation, which folio writes `[text](url)`, while the truth is the page's laid-out text
 * (`innerText` carries no address). Unlinked, a linked heading matches its truth and costs no
 * URL's characters; pdf.js text has no links, so both rows are read alike.
 */
import { headingsOf, matchHeadings, type Heading } from './heading-match.ts';
import { scoreDocument, type DocumentScores } from './metrics.ts';
import type { PageTruth } from './printed-truth.ts';

export interface PrintedScore {
  found: number;
  missed: Heading[];
  extra: Heading[];
  /** Matched headings whose level is the truth's. */
  sameLevel: number;
  /** Matched pairs, truth level then engine level. */
  levels: [number, number][];
  scores: DocumentScores;
}

/** `[text](url)` → `text` (an image's `![alt](src)` → `alt`); the URL may hold one level of parentheses. */
export function unlinked(markdown: string): string {
  return markdown.replace(/!?\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*\)/gu, '$1');
}

/** The scores with TEDS left out (a truth whose tables are known wrong), Overall taken again without it. */
function withoutTables(scores: DocumentScores): DocumentScores {
  const parts = [scores.nid, scores.mhs].filter((v): v is number => v !== null);
  return { ...scores, teds: null, tedsS: null, overall: parts.length > 0 ? parts.reduce((a, b) => a + b, 0) / parts.length : null };
}

export function scorePrinted(truth: PageTruth, output: string): PrintedScore {
  const markdown = unlinked(output);
  const got = headingsOf(markdown);
  const { matchOf, extra } = matchHeadings(truth.headings, got);
  const levels: [number, number][] = [];
  const missed: Heading[] = [];
  truth.headings.forEach((h, k) => {
    const i = matchOf[k] as number;
    if (i >= 0) levels.push([h.level, (got[i] as Heading).level]);
    else missed.push(h);
  });
  return {
    found: levels.length,
    missed,
    extra: extra.map((k) => got[k] as Heading),
    sameLevel: levels.filter(([a, b]) => a === b).length,
    levels,
    scores: truth.tablesLeftOut === undefined ? scoreDocument(truth.markdown, markdown) : withoutTables(scoreDocument(truth.markdown, markdown)),
  };
}
