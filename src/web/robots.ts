/**
 * robots.txt (RFC 9309) for map and crawl, read with robots-parser as user agent `folio`.
 *
 * - 2xx: the rules apply; a file over 500 KiB is cut there (§2.5 asks parsers to read at least
 *   that much).
 * - 4xx ("unavailable", §2.3.1.3): no rules, everything may be crawled.
 * - 5xx or no answer ("unreachable", §2.3.1.4): complete disallow.
 * - Redirects are followed (at most 5, §2.3.1.2) by the Fetcher, each hop SSRF-checked.
 */
import robotsParserModule from 'robots-parser';
import type { Fetcher } from './fetch/types.ts';
import { isServiceError } from '../errors.ts';

// robots-parser is CommonJS (`module.exports = function`); its typings declare an ES default export,
// which NodeNext types as the namespace. At run time the default import is the function.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

export const ROBOTS_USER_AGENT = 'folio';
/** RFC 9309 §2.5: at least 500 kibibytes are parsed. */
export const MAX_ROBOTS_BYTES = 500 * 1024;
/** A site's Crawl-delay is honoured up to this many seconds (a larger one would stall a job). */
export const MAX_CRAWL_DELAY_S = 60;

export interface RobotsRules {
  /** `fetched` (2xx rules), `missing` (4xx: allow all), `unreachable` (5xx / no answer: disallow all). */
  readonly state: 'fetched' | 'missing' | 'unreachable';
  isAllowed(url: string): boolean;
  /** Crawl-delay for `folio` (or `*`) in seconds, capped; undefined when none. */
  crawlDelaySeconds(): number | undefined;
  /** Absolute `Sitemap:` URLs. */
  sitemaps(): string[];
}

const ALLOW_ALL: RobotsRules = { state: 'missing', isAllowed: () => true, crawlDelaySeconds: () => undefined, sitemaps: () => [] };
const DISALLOW_ALL: RobotsRules = { state: 'unreachable', isAllowed: () => false, crawlDelaySeconds: () => undefined, sitemaps: () => [] };

/** Rules from the text of a robots.txt served at `robotsUrl`. */
export function parseRobots(robotsUrl: string, text: string): RobotsRules {
  const robot = robotsParser(robotsUrl, text);
  return {
    state: 'fetched',
    // robots-parser answers undefined for a URL of another origin: those are not its business.
    isAllowed: (url) => robot.isAllowed(url, ROBOTS_USER_AGENT) !== false,
    crawlDelaySeconds: () => {
      const delay = robot.getCrawlDelay(ROBOTS_USER_AGENT);
      if (delay === undefined || !Number.isFinite(delay) || delay <= 0) return undefined;
      return Math.min(delay, MAX_CRAWL_DELAY_S);
    },
    sitemaps: () => robot.getSitemaps(),
  };
}

export interface RobotsFetchOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Fetches and reads `<origin>/robots.txt`. */
export async function fetchRobots(fetcher: Fetcher, origin: string, options: RobotsFetchOptions): Promise<RobotsRules> {
  const robotsUrl = new URL('/robots.txt', origin).href;
  try {
    const res = await fetcher.fetch({
      url: robotsUrl,
      timeoutMs: options.timeoutMs,
      maxRedirects: 5,
      maxBytes: MAX_ROBOTS_BYTES * 4,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (res.status >= 200 && res.status < 300) {
      return parseRobots(res.url, res.body.subarray(0, MAX_ROBOTS_BYTES).toString('utf8'));
    }
    if (res.status >= 400 && res.status < 500) return ALLOW_ALL;
    return DISALLOW_ALL;
  } catch (err) {
    options.signal?.throwIfAborted();
    // A blocked origin is the caller's answer (its pages are blocked too); anything else is
    // "unreachable" (a file over the cap included: it cannot be read safely).
    if (isServiceError(err) && err.code === 'URL_BLOCKED') throw err;
    return DISALLOW_ALL;
  }
}

/** One robots.txt per origin, fetched once (the crawl of one job, one map call). */
export class RobotsCache {
  readonly #fetcher: Fetcher;
  readonly #options: RobotsFetchOptions;
  readonly #byOrigin = new Map<string, Promise<RobotsRules>>();

  constructor(fetcher: Fetcher, options: RobotsFetchOptions) {
    this.#fetcher = fetcher;
    this.#options = options;
  }

  rulesFor(url: string): Promise<RobotsRules> {
    const origin = new URL(url).origin;
    let rules = this.#byOrigin.get(origin);
    if (!rules) {
      rules = fetchRobots(this.#fetcher, origin, this.#options);
      this.#byOrigin.set(origin, rules);
    }
    return rules;
  }
}
