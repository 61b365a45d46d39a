/**
 * `blockAds` in the browser: requests to these hosts (and their subdomains) are aborted before
 * they leave Chromium. The list is a small hand-kept subset of the ad-serving and tracking hosts
 * of Peter Lowe's blocklist (https://pgl.yoyo.org/adservers/) and EasyList's third-party domain
 * rules (https://easylist.to), chosen for the networks that serve most ads and consent banners;
 * it is a best effort, not a filter engine. The parse core's `blockAds` (src/parse/clean/ads.ts)
 * still removes ad slots and cookie banners from the rendered DOM afterwards.
 */
const AD_HOSTS = new Set([
  'doubleclick.net', 'googlesyndication.com', 'googleadservices.com', 'googletagservices.com', 'google-analytics.com',
  'googletagmanager.com', 'adservice.google.com', 'amazon-adsystem.com', 'adnxs.com', 'adsrvr.org', 'taboola.com',
  'outbrain.com', 'criteo.com', 'criteo.net', 'pubmatic.com', 'rubiconproject.com', 'moatads.com', 'adform.net',
  'openx.net', 'adsafeprotected.com', 'advertising.com', 'smartadserver.com', 'yieldmo.com', 'teads.tv', 'media.net',
  'scorecardresearch.com', 'quantserve.com', 'casalemedia.com', 'bidswitch.net', '3lift.com', 'sharethrough.com',
  'indexww.com', 'contextweb.com', 'lijit.com', 'sovrn.com', 'spotxchange.com', 'zedo.com', 'revcontent.com',
  'mgid.com', 'adroll.com', 'hotjar.com', 'facebook.net', 'ads-twitter.com', 'ads.linkedin.com', 'bat.bing.com',
  'serving-sys.com', 'innovid.com', 'demdex.net', 'everesttech.net', 'rlcdn.com', 'krxd.net', 'bluekai.com',
  'cookielaw.org', 'onetrust.com', 'cookiebot.com', 'consensu.org', 'quantcast.com', 'trustarc.com', 'didomi.io',
  'usercentrics.eu', 'privacy-mgmt.com',
]);

/** Whether the request's host is on the list (the host itself or a subdomain of an entry). */
export function isAdHost(hostname: string): boolean {
  const labels = hostname.toLowerCase().replace(/\.$/, '').split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (AD_HOSTS.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}
