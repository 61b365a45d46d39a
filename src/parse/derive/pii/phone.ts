/**
 * PHONE: candidates are digit runs shaped like a dialled number (7–15 digits, optional `+`/`00`
 * prefix, spaces, dots, dashes, parentheses); libphonenumber-js (full metadata) decides.
 * - International form (`+44 …`, `0044 …`): valid for the country it names.
 * - National form: valid for one of the common countries below, and either written with the
 *   grouping of a phone number or preceded by a phone cue ("tel", "phone", "call", "mobile", …).
 * Dates, version strings, IP addresses and long bare digit runs (order numbers) are not candidates.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { PiiSpan } from './spans.ts';

const CANDIDATE = /(?<![\w.+/-])(?:\+|00)?\(?\d[\d \u00a0().\-/]{5,22}\d(?![\w-]|[.,]\d)/g;

const NATIONAL_COUNTRIES: CountryCode[] = ['US', 'GB', 'DE', 'FR', 'IN', 'AU', 'CA', 'ES', 'IT', 'NL', 'BR', 'MX', 'JP', 'ZA', 'NG', 'KE', 'IE', 'CH', 'AT', 'BE', 'SE', 'PL', 'CN', 'KR', 'SG', 'NZ'];

const CUE = /(?:\b(?:tel|telephone|phone|ph|mobile|mob|cell|call|calling|fax|hotline|whatsapp|sms|text|dial|ring|contact|reach|telefon|téléphone|tél|teléfono|telefone|telefono|handy|portable|móvil|celular|電話)\b\.?|☎|📞)[^\n\d]{0,24}$/i;

const DATE_OR_VERSION = /^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d+(?:\.\d+){2,3})$/;

/** Groups of digits separated the way numbers are written: "020 7946 0958", "(415) 555-0132". */
function phoneGrouping(value: string): boolean {
  if (!/^(?:\+|00)?\(?\d{1,5}\)?(?:[ \u00a0.\-/]\(?\d{2,5}\)?){1,5}$/.test(value) || !/[ \u00a0\-()]/.test(value)) return false;
  // One separator style: "0.965 0.969" is two decimals in a table, not a number.
  return !(/\./.test(value) && /[ \u00a0]/.test(value));
}

function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

function validInternational(value: string): boolean {
  const normalized = value.startsWith('00') ? `+${value.slice(2)}` : value;
  const parsed = parsePhoneNumberFromString(normalized);
  return parsed !== undefined && parsed.isValid();
}

function validNational(value: string, countries: CountryCode[] = NATIONAL_COUNTRIES): boolean {
  for (const country of countries) {
    const parsed = parsePhoneNumberFromString(value, country);
    if (parsed && parsed.isValid()) return true;
  }
  return false;
}

export function findPhones(text: string): PiiSpan[] {
  const out: PiiSpan[] = [];
  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
    let value = m[0];
    let start = m.index;
    // A trailing ")" or "/" belongs to the surrounding text.
    value = value.replace(/[)/.\- ]+$/, (tail) => (value.includes('(') && tail.startsWith(')') && value.lastIndexOf('(') > value.lastIndexOf(')') ? ')' : ''));
    if (value.startsWith('(') && !value.includes(')')) {
      value = value.slice(1);
      start += 1;
    }
    const digits = digitsOf(value);
    if (digits.length < 7 || digits.length > 15) continue;
    if (DATE_OR_VERSION.test(value) || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(value)) continue;
    if (/\d\.\d+[ \u00a0]+\d/.test(value) && !value.startsWith('+')) continue; // decimals side by side
    const international = value.startsWith('+') || (value.startsWith('00') && !value.startsWith('000'));
    let valid: boolean;
    if (international) {
      valid = validInternational(value);
    } else {
      const before = text.slice(Math.max(0, start - 40), start);
      const cued = CUE.test(before);
      // Uncued, only the national shapes of phone numbers: a trunk 0 ("020 7946 0958") or the
      // North American "(415) 555-0132" / "415-555-0132" / "415.555.0132".
      const northAmerican = /^(?:\(\d{3}\) ?|\d{3}[-.])\d{3}[-.]\d{4}$/.test(value);
      if (!cued && !(phoneGrouping(value) && (/^\(?0/.test(value) || northAmerican))) continue;
      if (!cued && /^\d{5}-\d{3}$/.test(value)) continue; // a Brazilian CEP (postcode), "01310-200"
      valid = northAmerican ? validNational(value, ['US', 'CA']) : validNational(value);
      if (valid && !cued && /^\d{1,3}(?:[ ,]\d{3})+$/.test(value)) valid = false; // "1 234 567" is a quantity
    }
    if (valid) out.push({ start, end: start + value.length, group: 'PHONE' });
  }
  return out;
}
