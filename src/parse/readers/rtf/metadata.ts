/**
 * The `\info` group → DocumentMetadata: `\title` → title, `\subject` → description,
 * `\keywords` → keywords, `\author` → extra.author, `\operator` → extra.lastModifiedBy,
 * `\company`, `\category`, `\manager` → extra, `\creatim`/`\revtim` → extra.created/modified
 * (ISO 8601). `\deflangN` (a Windows LCID) → language as a BCP 47 tag.
 */
import { emptyMetadata, type DocumentMetadata } from '../../document.ts';

const LCIDS: Record<number, string> = {
  1025: 'ar-SA', 1026: 'bg-BG', 1027: 'ca-ES', 1028: 'zh-TW', 1029: 'cs-CZ', 1030: 'da-DK', 1031: 'de-DE', 1032: 'el-GR',
  1033: 'en-US', 1034: 'es-ES', 1035: 'fi-FI', 1036: 'fr-FR', 1037: 'he-IL', 1038: 'hu-HU', 1039: 'is-IS', 1040: 'it-IT',
  1041: 'ja-JP', 1042: 'ko-KR', 1043: 'nl-NL', 1044: 'nb-NO', 1045: 'pl-PL', 1046: 'pt-BR', 1048: 'ro-RO', 1049: 'ru-RU',
  1050: 'hr-HR', 1051: 'sk-SK', 1052: 'sq-AL', 1053: 'sv-SE', 1054: 'th-TH', 1055: 'tr-TR', 1057: 'id-ID', 1058: 'uk-UA',
  1059: 'be-BY', 1060: 'sl-SI', 1061: 'et-EE', 1062: 'lv-LV', 1063: 'lt-LT', 1065: 'fa-IR', 1066: 'vi-VN', 1081: 'hi-IN',
  1086: 'ms-MY', 2052: 'zh-CN', 2055: 'de-CH', 2057: 'en-GB', 2058: 'es-MX', 2060: 'fr-BE', 2067: 'nl-BE', 2070: 'pt-PT',
  3079: 'de-AT', 3081: 'en-AU', 3082: 'es-ES', 3084: 'fr-CA', 4105: 'en-CA', 5129: 'en-NZ', 6153: 'en-IE', 7177: 'en-ZA',
};

/** A Windows LCID as a BCP 47 tag, or undefined for unknown ones and "no proofing" (1024). */
export function lcidToLanguage(lcid: number): string | undefined {
  return LCIDS[lcid];
}

export const INFO_TEXT_KEYS = new Set(['title', 'subject', 'keywords', 'author', 'operator', 'company', 'category', 'manager', 'doccomm']);
export const INFO_TIME_KEYS = new Set(['creatim', 'revtim']);

export type InfoTime = Partial<Record<'yr' | 'mo' | 'dy' | 'hr' | 'min' | 'sec', number>>;

/** An `\info` date as ISO 8601, or undefined when it is missing or out of range. */
export function infoTimeToIso(time: InfoTime): string | undefined {
  const { yr, mo = 1, dy = 1, hr = 0, min = 0, sec = 0 } = time;
  if (yr === undefined || yr < 1900 || yr > 9999 || mo < 1 || mo > 12 || dy < 1 || dy > 31 || hr > 23 || min > 59 || sec > 59) return undefined;
  const date = new Date(Date.UTC(yr, mo - 1, dy, hr, min, sec));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export interface InfoValues {
  text: Map<string, string>;
  times: Map<string, string>;
  language?: string | undefined;
}

export function buildMetadata(info: InfoValues): DocumentMetadata {
  const metadata = emptyMetadata();
  const get = (key: string): string | undefined => {
    const value = info.text.get(key)?.replace(/\s+/g, ' ').trim();
    return value ? value : undefined;
  };
  const title = get('title');
  const subject = get('subject');
  const keywords = get('keywords');
  if (title) metadata.title = title;
  if (subject) metadata.description = subject;
  if (keywords) metadata.keywords = keywords;
  if (info.language) metadata.language = info.language;
  const extra: Record<string, string | undefined> = {
    author: get('author'),
    lastModifiedBy: get('operator'),
    company: get('company'),
    category: get('category'),
    manager: get('manager'),
    comments: get('doccomm'),
    created: info.times.get('creatim'),
    modified: info.times.get('revtim'),
  };
  for (const [key, value] of Object.entries(extra)) if (value) metadata.extra[key] = value;
  return metadata;
}
