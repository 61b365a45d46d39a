/**
 * Lookups by position in a Word file, shared by the Word 97 and Word 6/95 readers: a CP (character
 * position in the text) to its byte offset through the piece table, and a byte offset to the
 * property run (paragraph or character) that covers it. Both tables are sorted and do not
 * overlap, so each lookup is a binary search.
 */
import type { Piece } from './ole-text.ts';

/** The file position of a CP through the piece table (pieces sorted by CP); undefined outside it. */
export function filePositionOf(pieces: readonly Piece[], cp: number): number | undefined {
  let lo = 0;
  let hi = pieces.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const piece = pieces[mid] as Piece;
    if (cp < piece.startCp) hi = mid - 1;
    else if (cp >= piece.endCp) lo = mid + 1;
    else return piece.startFilePos + (cp - piece.startCp) * piece.bpc;
  }
  return undefined;
}

/** The run holding a file position, among runs sorted by position that do not overlap. */
export function runAt<T extends { fcStart: number; fcEnd: number }>(runs: readonly T[], fc: number): T | undefined {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const run = runs[mid] as T;
    if (fc < run.fcStart) hi = mid - 1;
    else if (fc >= run.fcEnd) lo = mid + 1;
    else return run;
  }
  return undefined;
}
