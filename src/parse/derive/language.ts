/**
 * Language from content, for documents that declare none (most PDFs, spreadsheets, bare HTML).
 * franc-min's trigram model answers in ISO 639-3; metadata carries BCP 47 tags, so the
 * two-letter ISO 639-1 code is used where one exists, the three-letter code otherwise.
 */
import { franc } from 'franc-min';

const ISO_639_1: Record<string, string> = {
  eng: 'en', spa: 'es', por: 'pt', ind: 'id', fra: 'fr', deu: 'de', jav: 'jv', vie: 'vi', ita: 'it',
  tur: 'tr', pol: 'pl', swh: 'sw', sun: 'su', ron: 'ro', hau: 'ha', bos: 'bs', hrv: 'hr', nld: 'nl',
  srp: 'sr', yor: 'yo', uzn: 'uz', zlm: 'ms', ibo: 'ig', tgl: 'tl', hun: 'hu', azj: 'az', ces: 'cs',
  run: 'rn', plt: 'mg', nya: 'ny', kin: 'rw', zul: 'zu', swe: 'sv', lin: 'ln', som: 'so', rus: 'ru',
  ukr: 'uk', bel: 'be', bul: 'bg', kaz: 'kk', arb: 'ar', urd: 'ur', pes: 'fa', pbu: 'ps', hin: 'hi',
  mar: 'mr', npi: 'ne', ckb: 'ku', cmn: 'zh', jpn: 'ja', kor: 'ko', ell: 'el', heb: 'he', tha: 'th',
  kat: 'ka', hye: 'hy', ben: 'bn', tam: 'ta', tel: 'te', kan: 'kn', mal: 'ml', guj: 'gu', pan: 'pa',
  ori: 'or', sin: 'si', mya: 'my', khm: 'km', lao: 'lo', amh: 'am', tir: 'ti', dan: 'da', nob: 'nb',
  fin: 'fi', slk: 'sk', slv: 'sl', est: 'et', lav: 'lv', lit: 'lt', cat: 'ca', glg: 'gl', eus: 'eu',
};

/** Below this many letters a trigram guess is noise; no answer is better than a wrong one. */
const MIN_SAMPLE = 80;
/** 1,000 characters agreed with the declared language on 18 of 18 corpus pages, as 4,000 did. */
const MAX_SAMPLE = 1000;

/** Words a table cell needs before its text counts as language, not a label or a value. */
const MIN_CELL_WORDS = 4;

/**
 * The first MAX_SAMPLE characters of an element's running text, without building its whole
 * textContent. Table cells count only when they hold a phrase (MIN_CELL_WORDS words or more):
 * names, codes and figures in cells say little of a language, and a trigram model fed a sheet of
 * them answers with confidence all the same (an English sheet of team names came out French).
 */
export function sampleText(root: Node, limit = MAX_SAMPLE): string {
  let out = '';
  const stack: Node[] = [root];
  while (stack.length > 0 && out.length < limit) {
    const node = stack.pop() as Node;
    if (node.nodeType === 3) {
      out += `${node.nodeValue ?? ''} `;
      continue;
    }
    if (node.nodeType === 1 && CELL_TAGS.has((node as Element).tagName)) {
      const text = node.textContent ?? '';
      if (text.trim().split(/\s+/).length >= MIN_CELL_WORDS) out += `${text} `;
      continue;
    }
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Node);
  }
  return out;
}

const CELL_TAGS = new Set(['TD', 'TH']);

export function detectLanguage(text: string): string | undefined {
  const sample = text.replace(/\s+/g, ' ').trim().slice(0, MAX_SAMPLE);
  if (sample.replace(/[^\p{L}]/gu, '').length < MIN_SAMPLE) return undefined;
  const code = franc(sample, { minLength: MIN_SAMPLE });
  if (code === 'und') return undefined;
  return ISO_639_1[code] ?? code;
}
