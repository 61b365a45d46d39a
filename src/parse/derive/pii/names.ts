/**
 * PERSON and LOCATION for `aggressive` (recall first): compromise's people and places, context
 * cues ("Name:", "Dear", "Mr./Ms./Dr.", "Address:", "lives in"), given-name and place gazetteers,
 * street-address and postcode patterns.
 */
import nlp from 'compromise';
import { foldPlace, GIVEN_NAMES, PLACES } from './gazetteer.ts';
import { linesMatching, regexSpans, type PiiGroup, type PiiSpan } from './spans.ts';

/** A regex source matching `words` in any letter case, so the rest of the pattern can stay case-sensitive. */
function caseless(words: string): string {
  return words.replace(/[a-zà-ÿ]/g, (c) => `[${c}${c.toUpperCase()}]`);
}

/** A capitalised name word: "O'Neill", "García-López", "Nguyễn"; particles may sit between words. */
const WORD = String.raw`\p{Lu}[\p{L}\p{M}'’\-]*\p{Ll}[\p{L}\p{M}'’\-]*|\p{Lu}\.?`;
const PARTICLE = String.raw`(?:van|von|de|da|del|della|der|den|di|du|la|le|bin|binti|al|el|ibn|ben|dos|das|y|ter|zu)`;
const NAME = String.raw`(?:${WORD})(?:[ \u00a0](?:${PARTICLE}[ \u00a0])?(?:${WORD})){0,3}`;

const HONORIFIC = String.raw`(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Herr|Frau|Mme|Mlle|Sr|Sra|Srta|Señor|Señora|Dott|Sig|Sig\.ra)\.?`;
const PERSON_CUES = [
  new RegExp(String.raw`\b${caseless(String.raw`(?:(?:full |first |last |customer |patient |employee |contact |account holder |cardholder |card holder )?name|patient|contact person|contact|attn|attention|customer|client|employee|applicant|author|signed by|signature|prepared by|approved by|assigned to|from|cc|beneficiary|recipient|tenant|landlord|guest|passenger|nom|nombre|vorname|nachname|cognome)`)}\s*:\s*(${NAME})`, 'gdu'),
  new RegExp(String.raw`\b(?:Dear|Hi|Hello|Hey|Bonjour|Hallo|Hola|Liebe|Lieber|Cher|Chère|Caro|Cara)\s+(?:${HONORIFIC}\s+)?(${NAME})`, 'gdu'),
  new RegExp(String.raw`\b${HONORIFIC}\s+(${NAME})`, 'gdu'),
  new RegExp(String.raw`\b(?:Regards|Sincerely|Best|Cheers|Thanks|Yours truly|Cordialement|Mit freundlichen Grüßen|Saludos),?\s*\n\s*(${NAME})`, 'gdu'),
  new RegExp(String.raw`\b${caseless(String.raw`(?:my name is|i am|i'm|this is|named|called|signed|meet|met|met with|meeting with|ask|invite|thank|spoke with|spoke to|talked to|according to|per|(?:written|taken|chaired|led|hosted|reported|reviewed|presented|organised|organized|sent|submitted|requested|created|filed|raised|approved|signed|translated|edited|interviewed|photographed|illustrated|managed|owned) by)`)}\s+(${NAME})`, 'gdu'),
];

const STREET_TYPE = String.raw`(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Way|Court|Ct|Place|Pl|Square|Sq|Terrace|Crescent|Close|Highway|Hwy|Parkway|Pkwy|Circle|Row|Walk|Gardens|Grove|Mews)\.?`;
const LOCATION_PATTERNS = [
  // 221B Baker Street[, Marylebone][, London NW1 6XE]; 1600 Pennsylvania Avenue NW, Washington, DC 20500
  new RegExp(String.raw`\b\d{1,5}[A-Za-z]?(?:[-–]\d{1,5})?,?\s+(?:\p{Lu}[\p{L}'’.-]*\s+){1,4}${STREET_TYPE}(?:\s+(?:NW|NE|SW|SE|N|S|E|W))?(?:,?\s+(?:Apt|Suite|Unit|Flat|Floor)\.?\s*#?\w+)?(?:,\s*\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,2}){0,2}(?:,?\s+[A-Z]{2}\s+\d{5}(?:-\d{4})?|,?\s+[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})?`, 'gu'),
  // Hauptstraße 12, 10115 Berlin; Via Roma 10; Calle Mayor 3; Keizersgracht 123
  new RegExp(String.raw`\b\p{Lu}[\p{L}-]*(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|gracht|laan|straat|vej|gatan|gate|veien)\s+\d{1,4}[a-z]?(?:,\s*\d{4,5}\s+\p{Lu}[\p{L}-]+)?`, 'gu'),
  new RegExp(String.raw`\b(?:Via|Viale|Piazza|Calle|Avenida|Av\.|Rua|Praça|Plaza|Paseo|Carrer|Rue|Avenue|Boulevard|Place|Chemin|Ulica|ul\.)\s+(?:(?:de|del|de la|des|du|da|do|dos|della|di|la|le|les)\s+)?\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,2},?\s+(?:n[º°o]\.?\s*)?\d{1,4}[a-z]?(?:,\s*\d{4,5}\s+\p{Lu}[\p{L}-]+)?`, 'gu'),
  // 12 rue de la Paix, 75002 Paris; 5 avenue Foch
  new RegExp(String.raw`\b\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?:rue|avenue|boulevard|bd|place|allée|chemin|impasse|quai|route)\s+(?:(?:de|du|des|de la|de l'|d')\s*)?\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,3}(?:,\s*\d{5}\s+\p{Lu}[\p{L}-]+)?`, 'giu'),
  // 10115 Berlin, 75002 Paris, 1012 AB Amsterdam
  /\b\d{4,5}(?:\s[A-Z]{2})?\s(?=\p{Lu})(?:Berlin|München|Munich|Hamburg|Köln|Frankfurt|Paris|Lyon|Marseille|Amsterdam|Rotterdam|Utrecht|Wien|Zürich|Genève|Madrid|Barcelona|Roma|Milano|Lisboa|Bruxelles|Brussel|Oslo|Stockholm|København|Warszawa|Praha|\p{Lu}\p{Ll}+)\b/gu,
  // UK postcode; Japanese postal mark
  /\b(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?)\s\d[ABD-HJLNP-UW-Z]{2}\b/g,
  /〒\s?\d{3}-\d{4}[^\n。]{0,40}/gu,
  // Street words that are never English: Jalan Sudirman, Jl. Thamrin, Soi Sukhumvit 11, Đường Lê Lợi, Rue Oberkampf, Calle Mayor
  new RegExp(String.raw`\b(?:Jalan|Jl\.|Jln\.?|Lorong|Soi|Thanon|Đường|Phố|Ulitsa|Calle|Rua|Rue|Carrer|Strada|Avenida)\s+\p{Lu}[\p{L}\p{M}'’.-]*(?:\s+\p{Lu}[\p{L}\p{M}'’.-]*){0,2}(?:\s+\d{1,4}[A-Za-z]?)?`, 'gu'),
];

/** A capitalised place name of one to three words, particles allowed ("Ho Chi Minh City", "Rio de Janeiro"). */
const PLACE_NAME = String.raw`\p{Lu}[\p{L}\p{M}'’-]*\p{Ll}[\p{L}\p{M}'’-]*(?:[ \u00a0](?:(?:de|do|da|del|di|la|le|el|al|of|upon|sur|am|an|im)[ \u00a0])?\p{Lu}[\p{L}\p{M}'’-]*\p{Ll}[\p{L}\p{M}'’-]*){0,2}`;
/**
 * Verbs and nouns of going, living and meeting followed by a place preposition: "we met in
 * Valparaíso", "the site visit to Mombasa", "the depot in Ōsaka", "flew from Nairobi".
 */
const PLACE_CUES = [
  new RegExp(String.raw`\b${caseless(String.raw`(?:met|meet|meeting|held|hosted|based|visit|visits|visited|visiting|trip|travel|travels|travelled|traveled|flew|fly|flying|flight|drove|drive|moved|move|relocated|relocating|grew up|raised|studied|study|stationed|headquartered|located|arrived|arriving|landed|stayed|staying|returned|live|lived|lives|living|work|works|worked|working|depot|office|offices|branch|branches|warehouse|factory|plant|campus|site|store|hotel|conference|summit|born|settled|holiday|vacation)`)}\s+(?:in|to|from|at|near|outside|around|via)\s+(${PLACE_NAME})`, 'gdu'),
  // "from Nairobi to Kigali": both ends
  new RegExp(String.raw`\bfrom\s+(${PLACE_NAME})\s+to\s+\p{Lu}`, 'gdu'),
  new RegExp(String.raw`\bfrom\s+\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,2}\s+to\s+(${PLACE_NAME})`, 'gdu'),
];
const LOCATION_CUE = new RegExp(
  String.raw`\b${caseless(String.raw`(?:(?:home |street |postal |mailing |shipping |billing |delivery |residential |work )?address|addr|adresse|anschrift|dirección|direccion|indirizzo|endereço|ship to|deliver to|located at|lives at|living at|resides at|born in|lives in|living in|moved to|based in|city|town|country|location|hometown|place of birth)`)}\s*:?\s+(\p{Lu}[^\n;()]{1,90}?|\d[^\n;()]{3,90}?)(?=[.!?]\s|[.!?]?$|\n|;|\(|\s-\s)`,
  'gdu',
);

const STOP_NAMES = new Set(['I', 'The', 'A', 'An', 'This', 'That', 'We', 'You', 'He', 'She', 'They', 'It', 'Our', 'My', 'Your', 'Thanks', 'Thank', 'Please', 'All', 'Team', 'Sir', 'Madam', 'Customer', 'Support', 'Sales', 'Admin', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']);

function trimSpan(text: string, span: PiiSpan): PiiSpan | undefined {
  let { start, end } = span;
  while (end > start && /[\s,.;:!?'"’)\]]/.test(text[end - 1] ?? '')) end -= 1;
  // Keep the dot of a final initial or abbreviation ("Dr.", "St.", "J.").
  if (text[end] === '.' && /(?:\b\p{Lu}|\b(?:St|Ave|Rd|Jr|Sr|Dr|Blvd))$/u.test(text.slice(Math.max(start, end - 4), end))) end += 1;
  while (start < end && /[\s,.;:'"‘(\[]/.test(text[start] ?? '')) start += 1;
  if (end <= start) return undefined;
  return { start, end, group: span.group };
}

function cueSpans(text: string, re: RegExp, group: PiiGroup): PiiSpan[] {
  return regexSpans(text, re, group, (value) => !STOP_NAMES.has(value.split(/\s/)[0] ?? ''), 1);
}

/**
 * compromise tags about 0.2 MB/s on one core. It reads only the lines where a name can be: a
 * capitalised word after another word (not only at the start of a sentence), outside table rows
 * of numbers and code; at most COMPROMISE_BUDGET characters of them per text. Cues, gazetteers
 * and address patterns cover the whole text (docs/pii.md).
 */
export const COMPROMISE_BUDGET = 200_000;
const NAME_LINE = /[\p{L},;:)'"’]\s+\p{Lu}\p{Ll}/gu;

type Offset = { text: string; offset: { start: number; length: number } };

function compromiseSpans(text: string): PiiSpan[] {
  const starts: number[] = [];
  const origins: number[] = [];
  let selected = '';
  for (const { start, line } of linesMatching(text, NAME_LINE)) {
    if (selected.length + line.length > COMPROMISE_BUDGET) break;
    starts.push(selected.length);
    origins.push(start);
    selected += `${line}\n`;
  }
  if (selected === '') return [];
  const doc = nlp(selected);
  const out: PiiSpan[] = [];
  const add = (terms: Offset[], group: PiiGroup) => {
    for (const t of terms) {
      const first = t.text.trim().split(/\s/)[0] ?? '';
      if (STOP_NAMES.has(first.replace(/[^\p{L}]/gu, ''))) continue;
      if (!/\p{Lu}/u.test(t.text)) continue; // lower-case "will", "may" tagged as names
      if (!/\p{Ll}/u.test(t.text)) continue; // acronyms and codes ("ORD-", "NASA")
      let i = starts.length - 1;
      while (i > 0 && (starts[i] ?? 0) > t.offset.start) i -= 1;
      const shift = (origins[i] ?? 0) - (starts[i] ?? 0);
      // compromise joins "Aziz (India" into one name: a span ends at a bracket.
      const bracket = selected.slice(t.offset.start, t.offset.start + t.offset.length).search(/[()[\]]/);
      const length = bracket > 0 ? bracket : t.offset.length;
      out.push({ start: t.offset.start + shift, end: t.offset.start + length + shift, group });
    }
  };
  add(doc.people().out('offset') as Offset[], 'PERSON');
  add(doc.places().out('offset') as Offset[], 'LOCATION');
  return out;
}

const CAPITALISED_PAIR = new RegExp(String.raw`(?<![\p{L}\p{M}])(${WORD})(?:[ \u00a0](?:${PARTICLE}[ \u00a0])?(?:${WORD})){1,2}`, 'gu');
const PLACE_WORDS = new RegExp(String.raw`(?<![\p{L}\p{M}])\p{Lu}[\p{L}\p{M}'’-]+(?:[ \u00a0](?:de |do |da )?\p{Lu}[\p{L}\p{M}'’-]+){0,2}`, 'gu');

function gazetteerSpans(text: string): PiiSpan[] {
  const out: PiiSpan[] = [];
  CAPITALISED_PAIR.lastIndex = 0;
  for (let m = CAPITALISED_PAIR.exec(text); m !== null; m = CAPITALISED_PAIR.exec(text)) {
    // "Contact Wanjiru Kamau": the name starts at the first known given name followed by a word.
    const words = m[0].split(/[ \u00a0]/);
    const at = words.findIndex((w, i) => i < words.length - 1 && GIVEN_NAMES.has(w.toLowerCase()));
    if (at >= 0) {
      const start = m.index + words.slice(0, at).join(' ').length + (at > 0 ? 1 : 0);
      out.push({ start, end: m.index + m[0].length, group: 'PERSON' });
    }
  }
  PLACE_WORDS.lastIndex = 0;
  for (let m = PLACE_WORDS.exec(text); m !== null; m = PLACE_WORDS.exec(text)) {
    // The longest prefix of the capitalised run that is a known place.
    const words = m[0].split(/[ \u00a0]/);
    for (let n = words.length; n >= 1; n -= 1) {
      const candidate = words.slice(0, n).join(' ');
      if (PLACES.has(candidate.toLowerCase()) || PLACES.has(foldPlace(candidate))) {
        out.push({ start: m.index, end: m.index + candidate.length, group: 'LOCATION' });
        break;
      }
    }
  }
  return out;
}

/**
 * A line where most words are capitalised and that does not end as a sentence is a title or a
 * table-of-contents entry ("LEGO Toys: from Wooden Blocks to Plastic Bricks 50"): its "from …
 * to …" is not a journey.
 */
function inTitleCaseLine(text: string, at: number): boolean {
  const start = text.lastIndexOf('\n', at) + 1;
  const end = text.indexOf('\n', at);
  const line = text.slice(start, end < 0 ? text.length : end).trim();
  if (/[.!?]["'”’)]?$/u.test(line)) return false; // a sentence, however many names it holds
  const words = line.split(/\s+/).filter((w) => /^\p{L}/u.test(w) && w.length > 3);
  return words.length >= 3 && words.filter((w) => /^\p{Lu}/u.test(w)).length > words.length * 0.6;
}

/**
 * A place name used as the name of something else: "the Paris Agreement", "the Geneva
 * Conventions", "the Tokyo theme", "Berlin-2" (a version or model name).
 */
const NAMED_AFTER_PLACE = /^(?:[-_]?\d|\s+(?:agreements?|accords?|conventions?|treat(?:y|ies)|protocols?|declarations?|charter|consensus|principles|syndrome|rules|process|club|round|statute|theme|style|format|font|template|edition|release|model|variant|strain|cipher|method|opening|defen[cs]e|gambit)\b)/i;

function namedAfterPlace(text: string, span: PiiSpan): boolean {
  return span.group === 'LOCATION' && NAMED_AFTER_PLACE.test(text.slice(span.end, span.end + 16));
}

export function findNamesAndPlaces(text: string, groups: ReadonlySet<PiiGroup>): PiiSpan[] {
  const raw: PiiSpan[] = [...compromiseSpans(text), ...gazetteerSpans(text)];
  for (const re of PERSON_CUES) raw.push(...cueSpans(text, re, 'PERSON'));
  for (const re of LOCATION_PATTERNS) raw.push(...regexSpans(text, re, 'LOCATION'));
  raw.push(...cueSpans(text, LOCATION_CUE, 'LOCATION'));
  for (const re of PLACE_CUES) {
    raw.push(...regexSpans(text, re, 'LOCATION', (value, m) => !STOP_NAMES.has(value.split(/\s/)[0] ?? '') && !inTitleCaseLine(text, m.index), 1));
  }
  const out: PiiSpan[] = [];
  for (const span of raw) {
    if (!groups.has(span.group)) continue;
    const trimmed = trimSpan(text, span);
    if (trimmed && !namedAfterPlace(text, trimmed)) out.push(trimmed);
  }
  return out;
}
