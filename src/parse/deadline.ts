/**
 * The reading's time budget inside the request's `timeout` (issue 3 §4): a reader that works page
 * by page stops at the deadline and returns the pages done with a warning, rather than being
 * stopped at the timeout with nothing. The margin is left for what follows reading (layout,
 * cleaning, the writers, sending the result back).
 */

/** Share of the timeout kept for the work after reading; at least MIN_MARGIN_MS, at most half the timeout. */
const MARGIN_SHARE = 0.15;
const MIN_MARGIN_MS = 1_000;

/** Epoch ms by which reading must end, for a request whose `timeout` clock started at `startedAt`. */
export function readingDeadline(startedAt: number, timeoutMs: number): number {
  const margin = Math.min(Math.max(timeoutMs * MARGIN_SHARE, MIN_MARGIN_MS), timeoutMs / 2);
  return startedAt + timeoutMs - margin;
}
