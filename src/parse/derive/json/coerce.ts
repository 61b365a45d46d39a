/**
 * A document's text as a value of a schema's type, or undefined when it is not one. Nothing is
 * guessed: "1.234,56 €" is a number, "about 12" is not; "January 8, 2020" is a date, "soon" is not.
 */

export type Coerced = string | number | boolean;

const CURRENCY = /[$€£¥₹₩₽₪₫฿₺₴₦₱]|\b(?:USD|EUR|GBP|JPY|CHF|CNY|CAD|AUD|INR|SEK|NOK|DKK|PLN|CZK|BRL|MXN|RUB|KRW|ZAR|NZD|SGD|HKD)\b/gi;

export function toNumber(text: string): number | undefined {
  let s = text.replace(CURRENCY, '').replace(/[\s\u00a0\u202f']/g, '');
  let negative = false;
  const paren = /^\((.*)\)$/.exec(s);
  if (paren) {
    negative = true;
    s = paren[1] as string;
  }
  s = s.replace(/^\+/, '');
  if (s.startsWith('-') || s.startsWith('−')) {
    negative = !negative;
    s = s.slice(1);
  }
  s = s.replace(/%$/, '');
  if (!/^\d[\d.,]*$/.test(s)) return undefined;
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let normal: string;
  if (lastDot >= 0 && lastComma >= 0) {
    // Both: the last one is the decimal mark ("1,234.56" or "1.234,56").
    normal = lastDot > lastComma ? s.replace(/,/g, '') : s.replace(/\./g, '').replace(',', '.');
  } else if (lastComma >= 0) {
    // Commas only: thousands when every group after the first has three digits ("12,345"), else a decimal comma ("12,5").
    normal = /^\d{1,3}(?:,\d{3})+$/.test(s) ? s.replace(/,/g, '') : /^\d+,\d+$/.test(s) ? s.replace(',', '.') : '';
  } else if ((s.match(/\./g)?.length ?? 0) > 1) {
    normal = /^\d{1,3}(?:\.\d{3})+$/.test(s) ? s.replace(/\./g, '') : '';
  } else {
    normal = s;
  }
  if (!/^\d+(?:\.\d+)?$/.test(normal)) return undefined;
  const n = Number(normal);
  return Number.isFinite(n) ? (negative ? -n : n) : undefined;
}

const TRUE = new Set(['true', 'yes', 'y', 'x', '✓', '✔', '☑', 'on', 'ja', 'oui', 'sí', 'si', 'sim', 'da', 'tak']);
const FALSE = new Set(['false', 'no', 'n', '✗', '✘', '☐', 'off', 'nein', 'non', 'não', 'nao', 'nie', 'nej', 'nee']);

export function toBoolean(text: string): boolean | undefined {
  const s = text.trim().toLowerCase();
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  return undefined;
}

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6, jul: 7, july: 7,
  aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11, dec: 12, december: 12,
};

function isoDate(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * A calendar date as `YYYY-MM-DD`: ISO dates (and date-times), "January 8, 2020", "8 January
 * 2020", "8 Jan. 2020", and day-first numeric dates with dots ("08.01.2020"). A slashed numeric
 * date is read only when it cannot be ambiguous (one part over 12): "3/4/2020" is left out.
 */
export function toDate(text: string): string | undefined {
  const s = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(s);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/.exec(s);
  if (m && MONTHS[(m[1] as string).toLowerCase()]) return isoDate(Number(m[3]), MONTHS[(m[1] as string).toLowerCase()] as number, Number(m[2]));
  m = /^(\d{1,2})(?:st|nd|rd|th)?\.?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})$/.exec(s);
  if (m && MONTHS[(m[2] as string).toLowerCase()]) return isoDate(Number(m[3]), MONTHS[(m[2] as string).toLowerCase()] as number, Number(m[1]));
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s);
  if (m) return isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    if (a > 12 && b <= 12) return isoDate(Number(m[3]), b, a);
    if (b > 12 && a <= 12) return isoDate(Number(m[3]), a, b);
  }
  return undefined;
}
