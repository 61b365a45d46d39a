/**
 * `blockAds` (interface-v2: "Block ads and cookie pop-ups"): removes ad slots and cookie-consent
 * banners, recognised by class/id words, ad-network attributes, ARIA labels and the hosts of ad
 * iframes. Class and id values are split into words (`top-ad_slot` → top, ad, slot) and matched
 * word by word, so `header`, `download` or `badge` never look like ads.
 *
 * Guards: nothing inside `<pre>`/`<code>` is touched (syntax highlighters use such class names),
 * and a match holding most of the page's text is kept (a recipe page for cookies stays).
 */
import type { PageIndex } from './page-index.ts';

const AD_WORDS = new Set([
  'ad', 'ads', 'advert', 'adverts', 'advertisement', 'advertisements', 'advertising', 'advertorial',
  'adsbygoogle', 'adsense', 'adslot', 'adunit', 'adbox', 'adbanner', 'adcontainer', 'adwrapper', 'adzone', 'adspace',
  'adblock', 'dfp', 'doubleclick', 'sponsored', 'taboola', 'outbrain', 'googleads', 'pubads',
]);

const CONSENT_WORDS = new Set([
  'cookie', 'cookies', 'consent', 'gdpr', 'ccpa', 'onetrust', 'cookiebot', 'cybotcookiebotdialog', 'didomi',
  'truste', 'trustarc', 'cookielaw', 'usercentrics', 'osano', 'quantcast', 'cookieconsent', 'cookienotice',
]);

/** Whole tokens of well-known consent managers whose words alone are not telling. */
const CONSENT_TOKENS = new Set(['cc-window', 'cc-banner', 'qc-cmp2-container', 'sp_message_container', 'fc-consent-root', 'ot-sdk-container', 'ot-sdk-row']);

const AD_LABEL = /^\s*(?:advertisement|advertising|ads?|sponsored(?: content)?|anzeige|publicit[ée]|werbung|reklama|publicidad)\s*$/i;
const CONSENT_LABEL = /cookie|consent|privacy (?:settings|preferences|choices)/i;

const AD_HOST =
  /(?:^|\.)(?:doubleclick\.net|googlesyndication\.com|googleadservices\.com|adservice\.google\.[a-z.]+|amazon-adsystem\.com|adnxs\.com|taboola\.com|outbrain\.com|criteo\.(?:com|net)|pubmatic\.com|rubiconproject\.com|moatads\.com|adform\.net|openx\.net|adsafeprotected\.com|advertising\.com|smartadserver\.com|yieldmo\.com|teads\.tv|media\.net)$/i;

/** The most a matched element may hold of the page's text and still be removed. */
const MAX_AD_SHARE = 0.5;

function words(token: string): string[] {
  return token.split(/[-_:.]+/).filter(Boolean);
}

function isAdOrConsentToken(token: string): boolean {
  // Utility-class variants (`md:hidden`, `[&_.ad]:p-0`) describe styling, not roles.
  if (token.includes(':') || token.includes('[')) return false;
  if (AD_WORDS.has(token) || CONSENT_WORDS.has(token) || CONSENT_TOKENS.has(token)) return true;
  return words(token).some((w) => AD_WORDS.has(w) || CONSENT_WORDS.has(w));
}

function adHost(src: string | undefined): boolean {
  if (!src) return false;
  try {
    return AD_HOST.test(new URL(src, 'http://relative.invalid/').hostname);
  } catch {
    return false;
  }
}

/** Class names repeat across a page: each distinct token is judged once per page. */
type TokenVerdicts = Map<string, boolean>;

export function isAdOrConsent(index: PageIndex, i: number, verdicts: TokenVerdicts = new Map()): boolean {
  const tag = index.tags[i] as string;
  const attrs = index.attrs[i];
  if (!attrs) return false;
  if ((tag === 'iframe' || tag === 'img') && adHost(attrs.src)) return true;
  if (attrs.adAttribute) return true;
  if (attrs.ariaLabel && (AD_LABEL.test(attrs.ariaLabel) || CONSENT_LABEL.test(attrs.ariaLabel))) return true;
  for (const token of index.tokens(i)) {
    let verdict = verdicts.get(token);
    if (verdict === undefined) {
      verdict = isAdOrConsentToken(token);
      verdicts.set(token, verdict);
    }
    if (verdict) return true;
  }
  return false;
}

export function removeAds(index: PageIndex): number {
  let removed = 0;
  const verdicts: TokenVerdicts = new Map();
  index.forEach((i) => {
    const tag = index.tags[i];
    if (tag === 'pre' || tag === 'code') return false;
    if (isAdOrConsent(index, i, verdicts) && index.share(i) <= MAX_AD_SHARE) {
      index.remove(i);
      removed++;
      return false;
    }
  });
  return removed;
}
