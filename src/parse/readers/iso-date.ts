/**
 * A document property date (W3CDTF in OOXML core properties and ODF meta.xml) as an ISO 8601
 * string. Office writes 1601-01-01 (or year 0) for "never set": dates before 1900 carry no
 * information and are dropped, as is anything that is not a date.
 */
export function isoDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time) || new Date(time).getUTCFullYear() < 1900) return undefined;
  return new Date(time).toISOString();
}
