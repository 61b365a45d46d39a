/**
 * FINANCIAL: payment card numbers (issuer prefix, length, Luhn), IBANs (country length and
 * ISO 7064 mod-97), SWIFT/BIC codes next to their label, US social security numbers (SSA
 * validity rules), UK National Insurance numbers, and account/routing/sort-code numbers next to
 * their label (in several languages).
 */
import { regexSpans, type PiiSpan } from './spans.ts';

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Issuer prefixes and lengths: Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro. */
function cardIssuerKnown(digits: string): boolean {
  const n = digits.length;
  if (/^4/.test(digits)) return n === 13 || n === 16 || n === 19;
  if (/^(?:5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return n === 16;
  if (/^3[47]/.test(digits)) return n === 15;
  if (/^(?:6011|64[4-9]|65)/.test(digits)) return n >= 16 && n <= 19;
  if (/^35(?:2[89]|[3-8]\d)/.test(digits)) return n >= 16 && n <= 19;
  if (/^3(?:0[0-5]|[689])/.test(digits)) return n >= 14 && n <= 19;
  if (/^62/.test(digits)) return n >= 16 && n <= 19;
  if (/^(?:5[06-9]|6\d)/.test(digits)) return n >= 12 && n <= 19;
  return false;
}

const CARD = /(?<![\w.-])\d(?:[ -]?\d){11,18}(?![\w-]|\.\d)/g;

/** IBAN lengths per country (SWIFT IBAN registry). */
const IBAN_LENGTH: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28, CZ: 24,
  DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28,
  HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20,
  LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29,
  RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19, SK: 24, SM: 27, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29, VA: 22,
  VG: 24, XK: 20,
};

export function ibanValid(compact: string): boolean {
  if (IBAN_LENGTH[compact.slice(0, 2)] !== compact.length) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : ch;
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

const IBAN = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![A-Za-z0-9])/g;

const LABEL_END = String.raw`(?:\s*(?:no\.?|number|nr\.?|#|code))?\s*[:#=]?\s*`;
const BIC = new RegExp(String.raw`\b(?:SWIFT|BIC)(?:\s*/\s*(?:SWIFT|BIC))?\b${LABEL_END}([A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)\b`, 'gdi');

const SSN = /(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])/g;
const SSN_LABELLED = /\b(?:SSN|social security(?: number| no\.?)?)\s*[:#]?\s*((?!000|666|9\d\d)\d{3} ?(?!00)\d{2} ?(?!0000)\d{4})\b/dgi;
/** UK National Insurance number as printed ("AB 12 34 56 C"); the compact form only after its label (NATIONAL_ID_LABELLED). */
const NINO = /\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] \d{2} \d{2} \d{2} [A-D]\b/g;
const NATIONAL_ID_LABELLED = new RegExp(
  String.raw`\b(?:SIN|social insurance number|Aadhaar|TFN|tax file number|BSN|NIR|INSEE|Steuer-?ID|codice fiscale|DNI|NIE|CPF|PESEL|national id(?:entity)?(?: number| no\.?)?|passport(?: number| no\.?)?|tax id|national insurance(?: number| no\.?)?|NINO|NI number)\b${LABEL_END}([A-Z0-9][A-Z0-9 .\/-]{6,22}[A-Z0-9])`,
  'gdi',
);
const ACCOUNT_LABELLED = new RegExp(
  String.raw`\b(?:account|acct|a\/c|bank account|checking account|savings account|routing|ABA|sort code|BSB|Kontonummer|Konto|IBAN|compte|num[eé]ro de compte|cuenta|conto)\b${LABEL_END}(\d[\d -]{3,24}\d)(?![\w-])`,
  'gdi',
);

function digitCount(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) n += 1;
  }
  return n;
}

export function findFinancial(text: string): PiiSpan[] {
  const out: PiiSpan[] = [];
  out.push(...regexSpans(text, CARD, 'FINANCIAL', (value) => {
    const digits = value.replace(/\D/g, '');
    // Grouping must look like a card's (4-4-4-4, 4-6-5, …) or be absent.
    return cardIssuerKnown(digits) && luhnValid(digits) && /^\d+$|^\d{4}([ -])\d{4,6}\1\d{4,5}(?:\1\d{1,4})?$/.test(value);
  }));
  out.push(...regexSpans(text, IBAN, 'FINANCIAL', (value) => ibanValid(value.replace(/ /g, ''))));
  out.push(...regexSpans(text, BIC, 'FINANCIAL', (value) => /^[A-Z0-9]+$/.test(value), 1));
  out.push(...regexSpans(text, SSN, 'FINANCIAL'));
  out.push(...regexSpans(text, SSN_LABELLED, 'FINANCIAL', undefined, 1));
  out.push(...regexSpans(text, NINO, 'FINANCIAL'));
  out.push(...regexSpans(text, NATIONAL_ID_LABELLED, 'FINANCIAL', (value) => digitCount(value) >= 5, 1));
  out.push(...regexSpans(text, ACCOUNT_LABELLED, 'FINANCIAL', (value) => digitCount(value) >= 5 || /^\d{2}-\d{2}-\d{2}$/.test(value), 1));
  return out;
}
