/**
 * The labelled PII set of bench:pii, generated (seeded, deterministic) so that no committed file
 * holds strings shaped like live credentials: tokens get their provider's shape at run time.
 *
 * Split rule (docs/pii.md): sentence i comes from template i mod T. Templates whose index is
 * ≡ 3 (mod 4) form the HELD-OUT part, and they draw every name, place and domain from the odd
 * positions of the pools, the tuning part from the even positions, with separate random seeds.
 * So the held-out part has templates, names, places and generated numbers the detectors were not
 * tuned on.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { PiiGroup } from '../../src/parse/derive/pii/index.ts';
import { mulberry32 } from '../../test/helpers/prng.ts';

export interface GoldSpan { start: number; end: number; group: PiiGroup }
export interface LabelledSentence { text: string; spans: GoldSpan[]; part: 'tuning' | 'held-out'; template: number }

type Rng = () => number;
const rng: (seed: number) => Rng = mulberry32;

const PEOPLE = [
  'Aiko Tanaka', 'Oluwaseun Adeyemi', 'José García', 'Wanjiru Kamau', 'Priya Raghunathan', 'Liam O\'Connor', 'Mei-Ling Chen',
  'Dmitri Volkov', 'Fatima Al-Sayed', 'Lars Johansson', 'Nguyen Van Anh', 'Chiara Bianchi', 'Kwame Mensah', 'Sofia Hernández',
  'Hiroshi Yamamoto', 'Ngozi Okonkwo', 'Pierre Lefèvre', 'Aoife Brennan', 'Rahul Mehta', 'Ingrid Solberg', 'Thabo Nkosi',
  'Camila Rodrigues', 'Jürgen Weber', 'Leilani Kahale', 'Mehmet Yılmaz', 'Siobhan Murphy', 'Arjun Patel', 'Zeynep Demir',
  'Tomasz Kowalski', 'Amara Diallo', 'Ji-woo Park', 'Beatriz Santos', 'Yusuf Ibrahim', 'Hannah Schmidt', 'Kofi Boateng',
  'Elodie Martin', 'Sipho Dlamini', 'Valentina Rossi', 'Omar Haddad', 'Astrid Lindqvist', 'Tunde Bakare', 'Lucia Fernández',
  'Kenji Watanabe', 'Anastasia Petrova', 'Diego Morales', 'Nomvula Zulu', 'Bartholomew Finch', 'Saoirse Byrne', 'Kaito Nakamura',
  'Thandiwe Mokoena', 'Rasmus Nygaard', 'Ximena Castillo', 'Emeka Eze', 'Svetlana Ivanova', 'Ravi Shankar', 'Gabriela Silva',
  'Florian Maier', 'Adaeze Nwosu', 'Hyun-woo Kim', 'Marguerite Dubois', 'Tariq Aziz', 'Ingeborg Hansen', 'Mateus Oliveira', 'Yara Haddad',
];
const CITIES = [
  'Lagos', 'Osaka', 'Lyon', 'Nairobi', 'Toronto', 'Melbourne', 'Hamburg', 'Seville', 'Bangalore', 'Porto', 'Krakow', 'Accra',
  'Montreal', 'Kyoto', 'Valencia', 'Gothenburg', 'Chennai', 'Curitiba', 'Leeds', 'Bologna', 'Durban', 'Edinburgh', 'Rotterdam', 'Graz',
  'Seattle', 'Marseille', 'Izmir', 'Cork', 'Auckland', 'Medellín', 'Antwerp', 'Brno',
];
const COUNTRIES = ['Nigeria', 'Japan', 'France', 'Kenya', 'Canada', 'Australia', 'Germany', 'Spain', 'India', 'Portugal', 'Poland', 'Ghana', 'Brazil', 'Sweden', 'Turkey', 'Ireland'];
const ADDRESSES = [
  '221B Baker Street, London NW1 6XE', '1600 Pennsylvania Avenue NW, Washington, DC 20500', 'Hauptstraße 12, 10115 Berlin',
  '12 rue de la Paix, 75002 Paris', 'Calle Mayor 3, 28013 Madrid', 'Via Roma 10, 00184 Roma', '742 Evergreen Terrace, Springfield',
  'Keizersgracht 123, 1015 CJ Amsterdam', '88 Queen Street, Auckland 1010', '350 Fifth Avenue, New York, NY 10118',
  'Rua Augusta 274, 1100-053 Lisboa', '45 Collins Street, Melbourne VIC 3000', '〒100-0001 東京都千代田区千代田1-1',
  '10 Downing Street, London SW1A 2AA', 'Bahnhofstrasse 21, 8001 Zürich', '17 Harcourt Road, Dublin 2',
];
const DOMAINS = ['example.com', 'mail.example.org', 'corp.example.net', 'uni.example.edu', 'example.co.uk', 'example.de', 'post.example.fr', 'example.co.jp'];

function pick<T>(r: Rng, list: readonly T[], heldOut: boolean): T {
  const half = list.filter((_, i) => (i % 2 === 1) === heldOut);
  return half[Math.floor(r() * half.length)] as T;
}
const digits = (r: Rng, n: number): string => Array.from({ length: n }, () => Math.floor(r() * 10)).join('');
const chars = (r: Rng, n: number, alphabet: string): string => Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';

function luhnComplete(prefix: string, length: number, r: Rng): string {
  let body = prefix + digits(r, length - prefix.length - 1);
  for (let c = 0; c < 10; c += 1) {
    const candidate = body + c;
    let sum = 0;
    for (let i = 0; i < candidate.length; i += 1) {
      let d = Number(candidate[candidate.length - 1 - i]);
      if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
    }
    if (sum % 10 === 0) { body = candidate; break; }
  }
  return body;
}

function iban(country: string, bbanLength: number, r: Rng): string {
  const bban = digits(r, bbanLength);
  const numeric = (bban + country + '00').replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const d of numeric) rem = (rem * 10 + Number(d)) % 97;
  const check = String(98 - rem).padStart(2, '0');
  return `${country}${check}${bban}`.replace(/(.{4})/g, '$1 ').trim();
}

const PHONE_SHAPES: [string, string][] = [
  ['US', '(2DD) 5DD-DDDD'], ['US', '+1 2DD 5DD DDDD'], ['US', '2DD-5DD-DDDD'], ['GB', '+44 20 7DDD DDDD'], ['GB', '020 7DDD DDDD'],
  ['GB', '07DDD DDDDDD'], ['DE', '+49 30 DDDDDDDD'], ['DE', '030 DDDDDDDD'], ['DE', '+49 151 DDDDDDDD'], ['FR', '+33 1 DD DD DD DD'],
  ['FR', '01 DD DD DD DD'], ['FR', '06 DD DD DD DD'], ['IN', '+91 98DDD DDDDD'], ['AU', '+61 2 9DDD DDDD'], ['AU', '04DD DDD DDD'],
  ['JP', '+81 3-DDDD-DDDD'], ['JP', '090-DDDD-DDDD'], ['BR', '+55 11 9DDDD-DDDD'], ['NG', '+234 803 DDD DDDD'], ['KE', '+254 712 DDDDDD'],
  ['ES', '+34 612 DD DD DD'], ['IT', '+39 06 DDDD DDDD'], ['NL', '+31 20 DDD DDDD'], ['MX', '+52 55 DDDD DDDD'], ['ZA', '+27 21 DDD DDDD'],
  ['SE', '+46 8 DDD DDD DD'], ['PL', '+48 22 DDD DD DD'], ['KR', '+82 2-DDDD-DDDD'], ['SG', '+65 6DDD DDDD'], ['CH', '+41 44 DDD DD DD'],
];

function phone(r: Rng, heldOut: boolean): string {
  for (;;) {
    const [country, shape] = pick(r, PHONE_SHAPES, heldOut);
    const value = shape.replace(/D/g, () => String(Math.floor(r() * 10)));
    const parsed = parsePhoneNumberFromString(value, country as 'US');
    if (parsed?.isValid()) return value;
  }
}

/** Slot fillers: each returns the value and its group (undefined = not PII, a hard negative). */
type Filler = (r: Rng, heldOut: boolean) => [string, PiiGroup | undefined];
const F: Record<string, Filler> = {
  PERSON: (r, h) => [pick(r, PEOPLE, h), 'PERSON'],
  FIRST: (r, h) => [pick(r, PEOPLE, h).split(' ')[0] ?? '', 'PERSON'],
  CITY: (r, h) => [pick(r, CITIES, h), 'LOCATION'],
  COUNTRY: (r, h) => [pick(r, COUNTRIES, h), 'LOCATION'],
  ADDRESS: (r, h) => [pick(r, ADDRESSES, h), 'LOCATION'],
  EMAIL: (r, h) => {
    const [first, last] = pick(r, PEOPLE, h).normalize('NFD').replace(/[^\x20-\x7e]/g, '').toLowerCase().replace(/'/g, '').split(' ');
    const sep = pick(r, ['.', '_', '', '-', '.', '+news.'], h);
    return [`${first}${sep}${last ?? ''}@${pick(r, DOMAINS, h)}`, 'EMAIL'];
  },
  PHONE: (r, h) => [phone(r, h), 'PHONE'],
  CARD: (r) => {
    const kind = Math.floor(r() * 3);
    if (kind === 0) return [luhnComplete('4', 16, r).replace(/(\d{4})(?=\d)/g, '$1 '), 'FINANCIAL'];
    if (kind === 1) return [luhnComplete(`5${1 + Math.floor(r() * 5)}`, 16, r).replace(/(\d{4})(?=\d)/g, '$1-'), 'FINANCIAL'];
    const amex = luhnComplete('37', 15, r);
    return [`${amex.slice(0, 4)} ${amex.slice(4, 10)} ${amex.slice(10)}`, 'FINANCIAL'];
  },
  IBAN: (r, h) => {
    const [c, n] = pick(r, [['DE', 18], ['GB', 18], ['FR', 23], ['ES', 20], ['NL', 14], ['IT', 23], ['BE', 12], ['CH', 17]] as [string, number][], h);
    if (c === 'GB') { const v = iban('GB', 18, r); return [v, 'FINANCIAL']; }
    return [iban(c, n, r), 'FINANCIAL'];
  },
  SSN: (r) => [`${100 + Math.floor(r() * 565)}-${10 + Math.floor(r() * 89)}-${1000 + Math.floor(r() * 8999)}`, 'FINANCIAL'],
  ACCOUNT: (r) => [digits(r, 8 + Math.floor(r() * 4)), 'FINANCIAL'],
  SORTCODE: (r) => [`${digits(r, 2)}-${digits(r, 2)}-${digits(r, 2)}`, 'FINANCIAL'],
  BIC: (r) => [`${chars(r, 4, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')}${pick(r, ['DE', 'GB', 'FR', 'NL', 'US', 'JP'], false)}${chars(r, 2, UPPER_NUM)}${r() < 0.5 ? chars(r, 3, UPPER_NUM) : ''}`, 'FINANCIAL'],
  NINO: (r) => [`${pick(r, ['AB', 'CE', 'JK', 'PR', 'WX'], false)} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)} ${pick(r, ['A', 'B', 'C', 'D'], false)}`, 'FINANCIAL'],
  TOKEN: (r, h) => [pick(r, TOKEN_MAKERS, h)(r), 'SECRET'],
  PASSWORD: (r) => [`${chars(r, 4, ALNUM)}!${digits(r, 2)}${chars(r, 4, ALNUM)}`, 'SECRET'],
  HEXKEY: (r) => [chars(r, 40, ALNUM), 'SECRET'],
  // Hard negatives.
  ORDER: (r) => [pick(r, [`#${digits(r, 8)}`, `ORD-${digits(r, 6)}`, `${digits(r, 10)}`, `PO ${digits(r, 7)}`], r() < 0.5), undefined],
  VERSION: (r) => [pick(r, [`v${Math.floor(r() * 20)}.${Math.floor(r() * 30)}.${Math.floor(r() * 50)}`, `${Math.floor(r() * 9)}.${Math.floor(r() * 99)}.${Math.floor(r() * 999)}.${Math.floor(r() * 9999)}`], r() < 0.5), undefined],
  DATE: (r) => [pick(r, [`2024-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`, `1${Math.floor(r() * 9)}/0${1 + Math.floor(r() * 9)}/2023`, `0${1 + Math.floor(r() * 9)}.1${Math.floor(r() * 2)}.2025`], r() < 0.5), undefined],
  HASH: (r) => [chars(r, pick(r, [40, 64, 32], r() < 0.5), HEX), undefined],
  UUID: (r) => [`${chars(r, 8, HEX)}-${chars(r, 4, HEX)}-4${chars(r, 3, HEX)}-a${chars(r, 3, HEX)}-${chars(r, 12, HEX)}`, undefined],
  IP: (r) => [`${10 + Math.floor(r() * 200)}.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}`, undefined],
  ISBN: (r) => [`978-${digits(r, 1)}-${digits(r, 4)}-${digits(r, 4)}-${digits(r, 1)}`, undefined],
  PROPER: (r, h) => [pick(r, PROPER_NOUNS, h), undefined],
  AMOUNT: (r) => [`$${Math.floor(r() * 999)},${digits(r, 3)},${digits(r, 3)}`, undefined],
};

/** Capitalised words that are neither people nor places: the hard negatives of PERSON/LOCATION. */
const PROPER_NOUNS = [
  'Red Hat', 'Stack Overflow', 'Visual Studio Code', 'Apple Watch', 'Google Chrome', 'General Electric', 'Deutsche Bahn',
  'Air France', 'Linux Foundation', 'Machine Learning', 'Annual Report', 'Quarterly Review', 'Terms of Service', 'Privacy Policy',
  'Black Friday', 'Product Hunt', 'Pull Request', 'Release Notes', 'Customer Success', 'Data Protection Officer', 'Open Source',
  'Service Level Agreement', 'Getting Started', 'Frequently Asked Questions',
];

const TOKEN_MAKERS: ((r: Rng) => string)[] = [
  (r) => `gh${'p'}_${chars(r, 36, ALNUM)}`,
  (r) => `AK${'IA'}${chars(r, 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`,
  (r) => `xo${'xb'}-${digits(r, 11)}-${digits(r, 13)}-${chars(r, 24, ALNUM)}`,
  (r) => `sk${'_live'}_${chars(r, 24, ALNUM)}`,
  (r) => `sk-${'proj'}-${chars(r, 48, ALNUM + '_-')}`,
  (r) => `sk-ant-${'api03'}-${chars(r, 93, ALNUM + '_-')}AA`,
  (r) => `AI${'za'}${chars(r, 35, ALNUM + '_-')}`,
  (r) => `np${'m'}_${chars(r, 36, ALNUM)}`,
  (r) => `gl${'pat'}-${chars(r, 20, ALNUM + '_-')}`,
  (r) => `S${'G'}.${chars(r, 22, ALNUM)}.${chars(r, 43, ALNUM)}`,
  (r) => `ey${'J'}${chars(r, 20, ALNUM)}.ey${'J'}${chars(r, 40, ALNUM)}.${chars(r, 43, ALNUM + '_-')}`,
  (r) => `h${'f'}_${chars(r, 34, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')}`,
  (r) => `shp${'at'}_${chars(r, 32, HEX)}`,
  (r) => `dop${'_v1'}_${chars(r, 64, HEX)}`,
  (r) => `-----BEGIN ${'RSA PRIVATE'} KEY-----\n${chars(r, 64, ALNUM + '+/')}\n${chars(r, 40, ALNUM + '+/')}=\n-----END ${'RSA PRIVATE'} KEY-----`,
  (r) => `gh${'o'}_${chars(r, 36, ALNUM)}`,
];

/** Templates: `{SLOT}` is filled and labelled; `{NEG:SLOT}` is filled as a hard negative. */
const TEMPLATES = [
  'Please contact {PERSON} at {EMAIL} before Friday.',
  'Call me on {PHONE} if the delivery to {ADDRESS} fails.',
  'Dear {PERSON}, your order {NEG:ORDER} ships on {NEG:DATE}.',
  'Name: {PERSON}\nAddress: {ADDRESS}\nPhone: {PHONE}',
  'The card {CARD} was declined; the customer {PERSON} lives in {CITY}.',
  'Wire the deposit to IBAN {IBAN} (BIC: {BIC}) by {NEG:DATE}.',
  'export GITHUB_TOKEN={TOKEN}',
  'Release {NEG:VERSION} fixes the crash reported in build {NEG:HASH}.',
  '{PERSON} moved from {CITY} to {COUNTRY} last spring.',
  'Her SSN is {SSN} and her employee id is {NEG:ORDER}.',
  'Account number: {ACCOUNT}, sort code {SORTCODE}.',
  'db_url = "postgres://admin:{PASSWORD}@db.internal:5432/app"',
  'Request {NEG:UUID} from {NEG:IP} took 230 ms.',
  'Mr. {PERSON} confirmed by email ({EMAIL}) and by phone ({PHONE}).',
  'api_key: {HEXKEY}',
  'The ISBN {NEG:ISBN} edition costs {NEG:AMOUNT} at auction.',
  'Meet {FIRST} at the café in {CITY} on {NEG:DATE}.',
  'Use the token {TOKEN} for the staging deploy.',
  'National Insurance number: {NINO}.',
  'Ship to: {ADDRESS}',
  'Tel. {PHONE} · Fax {PHONE}',
  'password={PASSWORD}',
  'Thanks,\n{PERSON}',
  'Commit {NEG:HASH} bumped the dependency to {NEG:VERSION}.',
  'Refund {NEG:AMOUNT} to the card ending in 4242 for order {NEG:ORDER}.',
  'Dr. {PERSON} from {CITY} will review the MRI.',
  'Send the invoice to {EMAIL}; copy {EMAIL}.',
  'Our office at {ADDRESS} opens at 9:00.',
  'Authorization: Bearer {HEXKEY}',
  '{PERSON} ({COUNTRY}) won the 2019 prize with {NEG:AMOUNT} in sales.',
  'SECRET_KEY = "{HEXKEY}"',
  'The package {NEG:UUID} was built on {NEG:DATE} from {NEG:HASH}.',
  'Reach {PERSON} on WhatsApp at {PHONE}.',
  'Paid with {CARD}, billing address {ADDRESS}.',
  'routing number {ACCOUNT} and account {ACCOUNT}',
  'Hello {FIRST}, the meeting moved to {CITY}.',
  'Config: AWS_ACCESS_KEY_ID={TOKEN}',
  'Server {NEG:IP} runs {NEG:VERSION} since {NEG:DATE}.',
  'According to {PERSON}, the flood hit {CITY} hardest.',
  'My password is {PASSWORD}, please change it.',
  'Invoice questions go to {EMAIL}.',
  'Card on file: {CARD} (exp 09/27).',
  'Spoke with {PERSON} about the lease in {CITY}.',
  'Bitte überweisen Sie an {IBAN}; Rückfragen an {EMAIL}.',
  'SSN: {SSN}',
  'The build {NEG:VERSION} of {NEG:DATE} is signed by key {NEG:HASH}.',
  'Contact: {PERSON} <{EMAIL}>',
  'Cardholder {PERSON}, card {CARD}, social security number {SSN}.',
  'IBAN {IBAN}',
  'Order {NEG:ORDER} for {NEG:AMOUNT}, tracking {NEG:UUID}.',
  'Our {COUNTRY} office: {ADDRESS}.',
  'Reply to {EMAIL} or call {PHONE}; account no. {ACCOUNT}.',
  'See the {NEG:PROPER} page and the {NEG:PROPER} section before Monday.',
  'The {NEG:PROPER} team met {PERSON} in {CITY}.',
  '{NEG:PROPER} and {NEG:PROPER} were updated in March.',
  'Our {NEG:PROPER} guide explains {NEG:PROPER} for new users.',
];

function fill(template: string, r: Rng, heldOut: boolean): { text: string; spans: GoldSpan[] } {
  let text = '';
  const spans: GoldSpan[] = [];
  let at = 0;
  for (const m of template.matchAll(/\{(NEG:)?([A-Z]+)\}/g)) {
    text += template.slice(at, m.index);
    const filler = F[m[2] ?? ''];
    if (!filler) throw new Error(`unknown slot ${m[2]}`);
    const [value, group] = filler(r, heldOut);
    if (group && !m[1]) spans.push({ start: text.length, end: text.length + value.length, group });
    text += value;
    at = (m.index ?? 0) + m[0].length;
  }
  return { text: text + template.slice(at), spans };
}

export function labelledSet(size = 800): LabelledSentence[] {
  const tuningRng = rng(14);
  const heldOutRng = rng(1414);
  const out: LabelledSentence[] = [];
  for (let i = 0; i < size; i += 1) {
    const template = i % TEMPLATES.length;
    const heldOut = template % 4 === 3;
    const { text, spans } = fill(TEMPLATES[template] ?? '', heldOut ? heldOutRng : tuningRng, heldOut);
    out.push({ text, spans, part: heldOut ? 'held-out' : 'tuning', template });
  }
  return out;
}
