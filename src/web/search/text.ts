/** Small helpers the adapters share: snippet text, URLs, dates. */
import type { TimeFilter } from './tbs.ts';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'", '#x27': "'" };

/** Engines mark matches with `<strong>`/`<b>` (Brave) and escape entities: plain text out. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
      const lower = name.toLowerCase();
      if (ENTITIES[lower] !== undefined) return ENTITIES[lower];
      if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
      if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)));
      return whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** An http(s) URL, with protocol-relative `//host/…` made https; anything else undefined. */
export function absoluteHttpUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const text = raw.startsWith('//') ? `https:${raw}` : raw;
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

const UNIT_DAYS = { hour: 1 / 24, day: 1, week: 7, month: 31, year: 366 } as const;

/** How many days a `qdr` filter covers. */
export function spanDays(filter: Extract<TimeFilter, { kind: 'past' }>): number {
  return UNIT_DAYS[filter.unit] * filter.count;
}

/** True when a hit's date is unknown or falls inside the range (bounds inclusive, by day). */
export function withinRange(date: string | undefined, range: Extract<TimeFilter, { kind: 'range' }>): boolean {
  if (date === undefined) return true;
  const t = Date.parse(date);
  if (Number.isNaN(t)) return true;
  const day = new Date(t).toISOString().slice(0, 10);
  return (range.from === undefined || day >= range.from) && (range.to === undefined || day <= range.to);
}
