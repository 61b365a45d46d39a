/**
 * `blockAds` (interface-v2: "Block ads and cookie pop-ups"): removes ad slots and cookie-consent
 * banners, recognised by class/id words, ad-network attributes, ARIA labels and the hosts of ad
 * iframes. Class and id values are split into words (`top-ad_slot` → top, ad, slot) and matched
 * word by word, so `header`, `download` or `badge` never look like ads.
 *
 * Guards: nothing inside `<pre>`/`<code>` is touched (syntax highlighters use such class names),
 * and a match holding most of the page's text is kept (a recipe page for cookies stays).
 */
import type { ContentStats } from './content-stats.ts';
import { classAndId, removeAll, walkElements } from './dom.ts';

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

const AD_ATTRIBUTES = ['data-ad', 'data-ad-slot', 'data-ad-client', 'data-ad-unit', 'data-adunit', 'data-ad-format', 'data-google-query-id', 'data-dfp', 'data-ad-placement'];

const AD_LABEL = /^\s*(?:advertisement|advertising|ads?|sponsored(?: content)?|anzeige|publicit[ée]|werbung|reklama|publicidad)\s*$/i;
const CONSENT_LABEL = /cookie|consent|privacy (?:settings|preferences|choices)/i;

const AD_HOST =
  /(?:^|\.)(?:doubleclick\.net|googlesyndication\.com|googleadservices\.com|adservice\.google\.[a-z.]+|amazon-adsystem\.com|adnxs\.com|taboola\.com|outbrain\.com|criteo\.(?:com|net)|pubmatic\.com|rubiconproject\.com|moatads\.com|adform\.net|openx\.net|adsafeprotected\.com|advertising\.com|smartadserver\.com|yieldmo\.com|teads\.tv|media\.net)$/i;

/** The most a matched element may hold of the page's text and still be removed. */
const MAX_AD_SHARE = 0.5;

function words(token: string): string[] {
  return token.split(/[-_:.]+/).filter(Boolean);
}

function hasAdWords(tokens: string[]): boolean {
  return tokens.some((token) => AD_WORDS.has(token) || words(token).some((w) => AD_WORDS.has(w)));
}

function hasConsentWords(tokens: string[]): boolean {
  return tokens.some((token) => CONSENT_TOKENS.has(token) || CONSENT_WORDS.has(token) || words(token).some((w) => CONSENT_WORDS.has(w)));
}

function adHost(src: string | null): boolean {
  if (!src) return false;
  try {
    return AD_HOST.test(new URL(src, 'http://relative.invalid/').hostname);
  } catch {
    return false;
  }
}

export function isAdOrConsent(element: Element): boolean {
  const tag = element.localName;
  if ((tag === 'iframe' || tag === 'img' || tag === 'script') && adHost(element.getAttribute('src'))) return true;
  if (AD_ATTRIBUTES.some((name) => element.hasAttribute(name))) return true;
  const label = element.getAttribute('aria-label');
  if (label && (AD_LABEL.test(label) || CONSENT_LABEL.test(label))) return true;
  const tokens = classAndId(element);
  if (tokens.length === 0) return false;
  return hasAdWords(tokens) || hasConsentWords(tokens);
}

export function removeAds(body: Element, stats: ContentStats): number {
  const doomed: Element[] = [];
  walkElements(body, (element) => {
    const tag = element.localName;
    if (tag === 'pre' || tag === 'code') return false;
    if (isAdOrConsent(element) && stats.share(element) <= MAX_AD_SHARE) {
      doomed.push(element);
      return false;
    }
  });
  return removeAll(doomed);
}
