/**
 * Firecrawl's `location` ("San Francisco,California,United States", "Germany") and `country`
 * (ISO 3166-1 alpha-2) become what the backends understand: a country code and a language tag
 * (SearXNG `language=de-DE`, Brave `country=DE&search_lang=de`). The last comma-separated part
 * of `location` names the country, by English name or by code. `lang` overrides the language.
 */

/** ISO 3166-1 alpha-2 → [English name, main language (ISO 639-1)]. */
const COUNTRIES: Record<string, [string, string]> = {
  AR: ['Argentina', 'es'], AT: ['Austria', 'de'], AU: ['Australia', 'en'], BE: ['Belgium', 'nl'],
  BR: ['Brazil', 'pt'], CA: ['Canada', 'en'], CH: ['Switzerland', 'de'], CL: ['Chile', 'es'],
  CN: ['China', 'zh'], CO: ['Colombia', 'es'], CZ: ['Czechia', 'cs'], DE: ['Germany', 'de'],
  DK: ['Denmark', 'da'], EG: ['Egypt', 'ar'], ES: ['Spain', 'es'], FI: ['Finland', 'fi'],
  FR: ['France', 'fr'], GB: ['United Kingdom', 'en'], GR: ['Greece', 'el'], HK: ['Hong Kong', 'zh'],
  HU: ['Hungary', 'hu'], ID: ['Indonesia', 'id'], IE: ['Ireland', 'en'], IL: ['Israel', 'he'],
  IN: ['India', 'en'], IT: ['Italy', 'it'], JP: ['Japan', 'ja'], KR: ['South Korea', 'ko'],
  MX: ['Mexico', 'es'], MY: ['Malaysia', 'ms'], NL: ['Netherlands', 'nl'], NO: ['Norway', 'nb'],
  NZ: ['New Zealand', 'en'], PE: ['Peru', 'es'], PH: ['Philippines', 'en'], PL: ['Poland', 'pl'],
  PT: ['Portugal', 'pt'], RO: ['Romania', 'ro'], RU: ['Russia', 'ru'], SA: ['Saudi Arabia', 'ar'],
  SE: ['Sweden', 'sv'], SG: ['Singapore', 'en'], TH: ['Thailand', 'th'], TR: ['Turkey', 'tr'],
  TW: ['Taiwan', 'zh'], UA: ['Ukraine', 'uk'], US: ['United States', 'en'], VN: ['Vietnam', 'vi'],
  ZA: ['South Africa', 'en'],
};

const ALIASES: Record<string, string> = {
  usa: 'US', 'united states of america': 'US', america: 'US', uk: 'GB', 'great britain': 'GB',
  england: 'GB', scotland: 'GB', wales: 'GB', 'czech republic': 'CZ', korea: 'KR', 'republic of korea': 'KR',
  'russian federation': 'RU', 'türkiye': 'TR', turkiye: 'TR', holland: 'NL', deutschland: 'DE',
  españa: 'ES', espana: 'ES', brasil: 'BR', italia: 'IT', nederland: 'NL', schweiz: 'CH', suisse: 'CH',
  österreich: 'AT', osterreich: 'AT', 'viet nam': 'VN',
};

const BY_NAME = new Map<string, string>(Object.entries(COUNTRIES).map(([code, [name]]) => [name.toLowerCase(), code]));

function countryCode(text: string): string | undefined {
  const t = text.trim().toLowerCase();
  if (t.length === 2 && COUNTRIES[t.toUpperCase()]) return t.toUpperCase();
  return BY_NAME.get(t) ?? ALIASES[t];
}

export interface Locale {
  country?: string;
  /** `de-DE` when the country is known, else the bare language. */
  language?: string;
  /** Set when `location` named no country this table knows. */
  warning?: string;
}

export function resolveLocale(input: { location?: string; country?: string; lang?: string }): Locale {
  const out: Locale = {};
  if (input.location !== undefined) {
    const parts = input.location.split(',').filter((p) => p.trim().length > 0);
    const code = countryCode(parts[parts.length - 1] ?? '');
    if (code) out.country = code;
    else {
      out.warning = `location '${input.location}' names no country folio knows (the last comma-separated part should be a country name or code); searched without a region.`;
    }
  }
  if (out.country === undefined && input.country !== undefined) out.country = input.country;
  const language = input.lang ?? (out.country ? COUNTRIES[out.country]?.[1] : undefined);
  if (language !== undefined) {
    out.language = language.includes('-') || out.country === undefined ? language : `${language}-${out.country}`;
  }
  return out;
}
