/**
 * `tbs`: Google's time-based-search parameter, which Firecrawl passes through. Accepted forms:
 * `qdr:h|d|w|m|y` (past hour … year, optionally with a count, e.g. `qdr:d3`), a custom range
 * `cdr:1,cd_min:MM/DD/YYYY,cd_max:MM/DD/YYYY` (either bound may be left out), and `sbd:0|1`
 * (sort by date, which the backends here cannot honour and is ignored).
 */

export type TimeUnit = 'hour' | 'day' | 'week' | 'month' | 'year';

export type TimeFilter =
  | { kind: 'past'; unit: TimeUnit; count: number }
  /** ISO dates (YYYY-MM-DD); a missing bound is open. */
  | { kind: 'range'; from?: string; to?: string };

const UNITS: Record<string, TimeUnit> = { h: 'hour', d: 'day', w: 'week', m: 'month', y: 'year' };

/** `MM/DD/YYYY` (Google's order) → `YYYY-MM-DD`, or undefined when it is not a real date. */
function usDate(text: string): string | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (!m) return undefined;
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return d.toISOString().slice(0, 10);
}

const HELP = 'use qdr:h, qdr:d, qdr:w, qdr:m, qdr:y or cdr:1,cd_min:MM/DD/YYYY,cd_max:MM/DD/YYYY';

/** The filter, undefined when `tbs` filters nothing (only `sbd`), or a message saying what is wrong. */
export function parseTbs(tbs: string): TimeFilter | undefined | string {
  let past: TimeFilter | undefined;
  let custom = false;
  let from: string | undefined;
  let to: string | undefined;
  for (const part of tbs.split(',').map((p) => p.trim()).filter((p) => p.length > 0)) {
    const [key, value = ''] = part.split(':', 2) as [string, string?];
    if (key === 'qdr') {
      const m = /^([hdwmy])(\d{0,3})$/.exec(value);
      if (!m) return `'${part}' is not a time range; ${HELP}`;
      past = { kind: 'past', unit: UNITS[m[1] as string] as TimeUnit, count: m[2] ? Math.max(1, Number(m[2])) : 1 };
    } else if (key === 'cdr') {
      custom = value === '1';
    } else if (key === 'cd_min' || key === 'cd_max') {
      const date = usDate(value);
      if (!date) return `'${part}' is not a date; ${key} takes MM/DD/YYYY`;
      if (key === 'cd_min') from = date;
      else to = date;
    } else if (key === 'sbd') {
      // sort by date: accepted, not available from the backends
    } else {
      return `'${part}' is not understood; ${HELP}`;
    }
  }
  if (past && custom) return `give either qdr or cdr, not both; ${HELP}`;
  if ((from || to) && !custom) return `cd_min and cd_max need cdr:1 before them; ${HELP}`;
  if (custom) {
    if (!from && !to) return `cdr:1 needs cd_min or cd_max; ${HELP}`;
    if (from && to && from > to) return `cd_min (${from}) is after cd_max (${to})`;
    return { kind: 'range', ...(from ? { from } : {}), ...(to ? { to } : {}) };
  }
  return past;
}
