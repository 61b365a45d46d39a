/**
 * Table-of-contents entries: a title, then (across dot leaders or a wide space) its page number,
 * the page numbers of a run of entries flush right at one edge. A run of them is a list of
 * entries, never headings however bold or large the chapter entries are set.
 *
 * The evidence is the typesetter's: page numbers (1–4 digits or a roman numeral) ending lines,
 * after dot leaders on at least CONTENTS_RUN rows; or right-aligned on one edge over at least
 * CONTENTS_RUN rows, most of them set off by leaders or a space wider than a word space.
 * Justified prose that happens to end lines with a number shares the edge but not the wide
 * spaces.
 */
import type { Line } from './lines.ts';

const PAGE_NUMBER = /^(?:\d{1,4}|[ivxlcdm]{1,7})$/iu;
/** Dot leaders: a word of dots (". . ." is set as several words of one dot each), or an ellipsis. */
const LEADER = /^(?:[.·…‥]{2,}|[.·])$/u;
/** A word ending in leaders and a page number. */
const LED_NUMBER = /[.·…‥]{2,}(?:\d{1,4}|[ivxlcdm]{1,7})$/iu;
/** Entries whose page numbers share one right edge, at least this many. */
const CONTENTS_RUN = 3;
/** Right edges within this many points are one edge. */
const EDGE_TOLERANCE = 2;
/** A space wider than this many font sizes is no word space. */
const WIDE_SPACE_EM = 1;

interface Candidate {
  /** The lines of the entry (the title and a number set apart on the same row are two lines). */
  lines: Line[];
  edge: number;
  row: number;
  setOff: boolean;
  /** Dot leaders run to the number. */
  leaders: boolean;
}

function candidates(lines: readonly Line[]): Candidate[] {
  const out: Candidate[] = [];
  const byRow = new Map<number, Line[]>();
  for (const l of lines) byRow.set(l.row, [...(byRow.get(l.row) ?? []), l]);
  for (const line of lines) {
    const words = line.words;
    const last = words[words.length - 1];
    if (!last) continue;
    // Title, leaders and number run together in one word ("Biology……32").
    if (LED_NUMBER.test(last.text) && /\p{L}/u.test(line.words.map((w) => w.text).join(''))) {
      out.push({ lines: [line], edge: last.x1, row: line.row, setOff: true, leaders: true });
      continue;
    }
    if (!PAGE_NUMBER.test(last.text)) continue;
    if (words.length >= 2) {
      const before = words[words.length - 2];
      if (!before) continue;
      const leaders = LEADER.test(before.text) || /[.·…‥]{2,}$/u.test(before.text);
      const setOff = leaders || last.x0 - before.x1 > WIDE_SPACE_EM * line.size;
      // A title alone: not a number after a number (a row of a table of figures).
      if (words.slice(0, -1).every((w) => LEADER.test(w.text) || PAGE_NUMBER.test(w.text))) continue;
      out.push({ lines: [line], edge: last.x1, row: line.row, setOff, leaders });
      continue;
    }
    // A lone number: the page number of the title standing to its left on the same row.
    const title = (byRow.get(line.row) ?? []).filter((l) => l !== line && l.x1 <= line.x0);
    if (title.length === 0 || title.every((l) => l.words.every((w) => LEADER.test(w.text) || PAGE_NUMBER.test(w.text)))) continue;
    const leaders = title.some((l) => /[.·…‥]{2,}$/u.test(l.words[l.words.length - 1]?.text ?? ''));
    out.push({ lines: [...title, line], edge: last.x1, row: line.row, setOff: true, leaders });
  }
  return out;
}

/** The lines that are entries of a table of contents. */
export function contentsEntries(lines: readonly Line[]): Set<Line> {
  const entries = new Set<Line>();
  const found = candidates(lines);
  if (found.length < CONTENTS_RUN) return entries;
  // Leaders to a page number say "contents" on their own, once a run of entries has them.
  const led = found.filter((c) => c.leaders);
  if (new Set(led.map((c) => c.row)).size >= CONTENTS_RUN) for (const c of led) for (const l of c.lines) entries.add(l);
  // Candidates by rounded edge, so each looks only at its neighbours (a page of numbers has many).
  const byEdge = new Map<number, Candidate[]>();
  for (const c of found) {
    const key = Math.round(c.edge);
    byEdge.set(key, [...(byEdge.get(key) ?? []), c]);
  }
  for (const c of found) {
    const key = Math.round(c.edge);
    const near: Candidate[] = [];
    for (let k = key - EDGE_TOLERANCE - 1; k <= key + EDGE_TOLERANCE + 1; k++) near.push(...(byEdge.get(k) ?? []));
    const run = near.filter((o) => Math.abs(o.edge - c.edge) <= EDGE_TOLERANCE);
    if (new Set(run.map((o) => o.row)).size < CONTENTS_RUN) continue;
    if (run.filter((o) => o.setOff).length * 2 <= run.length) continue;
    for (const l of c.lines) entries.add(l);
  }
  return entries;
}
