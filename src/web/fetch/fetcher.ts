/**
 * createFetcher(): the one Fetcher every outbound request goes through (src/web/fetch/types.ts).
 *
 *   scheme check → address check (resolve first) → connect (address checked again, in the
 *   socket's own lookup) → redirects followed by hand, each hop checked the same way →
 *   body streamed under the byte cap and the deadline.
 *
 * With an outbound proxy (FOLIO_FETCH_PROXY, used for `proxy: basic|auto`), the proxy opens the
 * upstream connection, so only the resolve-first check applies to the target.
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { ServiceError } from '../../errors.ts';
import { parseIp, parseAllowList, type AllowList } from './address-policy.ts';
import { BlockedAddressError, guardedConnector, guardedLookup, refusal, resolveChecked, systemLookup, type LookupFunction } from './guarded-connect.ts';
import type { FetchRequest, FetchResponse, Fetcher } from './types.ts';

export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 10;
export const USER_AGENT = 'Mozilla/5.0 (compatible; folio/0.1; +https://github.com/folio)';

export interface FetcherOptions {
  /** FOLIO_FETCH_ALLOW entries: hosts, host:port pairs, CIDRs. */
  allow: readonly string[];
  /** FOLIO_FETCH_PROXY: used when a request asks for `proxy: basic|auto`. */
  proxyUrl?: string;
  /** DNS lookup (tests inject one); default `dns.lookup`. */
  lookup?: LookupFunction;
}

export interface ClosableFetcher extends Fetcher {
  /** Closes pooled connections. */
  close(): Promise<void>;
}

/** RFC 9110 §15.4: the redirect statuses that carry a Location to follow. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Fetch standard "HTTP-redirect fetch" step 13: credentials do not follow a cross-origin redirect. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** The URL as shown in messages and logs: user name, password, query and fragment removed. */
export function displayUrl(url: string | URL): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    // Query strings and fragments often carry tokens (signed URLs, `?api_key=`): messages, and the
    // log lines made of them, show that there was one, not what it was.
    const hadQuery = u.search !== '';
    u.search = '';
    u.hash = '';
    return hadQuery ? `${u.href}?…` : u.href;
  } catch {
    return '(an invalid URL)';
  }
}

function blocked(url: URL, why: string): ServiceError {
  return new ServiceError('URL_BLOCKED', `Refused to fetch ${displayUrl(url)}: ${why}. folio only fetches public http(s) addresses; an operator can allow a host with FOLIO_FETCH_ALLOW.`);
}

function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ServiceError('BAD_REQUEST', `'${raw.slice(0, 200)}' is not a valid absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw blocked(url, `the '${url.protocol.replace(/:$/, '')}' scheme is not allowed (only http and https are)`);
  }
  return url;
}

function portOf(url: URL): number {
  return Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
}

function hostnameOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

function findCause<T>(err: unknown, type: new (...args: never[]) => T): T | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof type) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function errorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function timeoutError(url: URL, timeoutMs: number): ServiceError {
  return new ServiceError('SCRAPE_TIMEOUT', `Fetching ${displayUrl(url)} did not finish within ${timeoutMs} ms. Raise \`timeout\` (up to 300000) if the site is slow.`);
}

function tooLarge(url: URL, maxBytes: number): ServiceError {
  return new ServiceError('FILE_TOO_LARGE', `The response from ${displayUrl(url)} is larger than the ${Math.round(maxBytes / (1024 * 1024))} MB limit.`);
}

/** Maps a failure of one hop to the contract's ServiceError. */
function mapFailure(err: unknown, url: URL, deadline: AbortSignal, timeoutMs: number, caller?: AbortSignal): unknown {
  if (err instanceof ServiceError) return err;
  const refused = findCause(err, BlockedAddressError);
  if (refused) return blocked(url, refused.message);
  if (caller?.aborted) return caller.reason;
  const code = errorCode(err);
  if (deadline.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return timeoutError(url, timeoutMs);
  }
  const host = hostnameOf(url);
  let what: string;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      what = `the host name '${host}' could not be resolved`;
      break;
    case 'ECONNREFUSED':
      what = `the connection to ${host}:${portOf(url)} was refused`;
      break;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      what = 'the connection was closed by the server';
      break;
    default:
      what = code?.startsWith('ERR_TLS') || code?.includes('CERT') ? `TLS failed (${code}); \`skipTlsVerification: true\` skips certificate checks` : `the request failed${code ? ` (${code})` : ''}`;
  }
  return new ServiceError('FETCH_FAILED', `Could not fetch ${displayUrl(url)}: ${what}.`, { cause: err });
}

function joinHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** A decoder for the Content-Encoding, or undefined for identity / unknown codings. */
function decoderFor(encoding: string | undefined): NodeJS.ReadWriteStream | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/** Drops a body not read (a redirect's, one over the cap); undici reports the abort as an error. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Reads a body to the end, decoded, failing past `maxBytes` of decoded bytes. */
async function readBody(body: Readable, encoding: string | undefined, maxBytes: number, url: URL): Promise<{ bytes: Buffer; decoded: boolean }> {
  const decoder = decoderFor(encoding);
  const source: Readable = decoder ? (body.pipe(decoder) as unknown as Readable) : body;
  if (decoder) body.on('error', (err) => (decoder as unknown as Readable).destroy(err));
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of source) {
      const buf = chunk as Buffer;
      total += buf.length;
      if (total > maxBytes) throw tooLarge(url, maxBytes);
      chunks.push(buf);
    }
  } finally {
    discard(body);
    if (decoder) (decoder as unknown as Readable).destroy();
  }
  return { bytes: Buffer.concat(chunks, total), decoded: decoder !== undefined };
}

export function createFetcher(options: FetcherOptions): ClosableFetcher {
  const allow: AllowList = parseAllowList(options.allow);
  const lookup = options.lookup ?? systemLookup;
  const checkedLookup = guardedLookup(lookup, allow);
  const dispatchers = new Map<string, Dispatcher>();

  function dispatcherFor(skipTls: boolean, viaProxy: boolean): Dispatcher {
    const key = `${skipTls ? 'insecure' : 'verify'}:${viaProxy ? 'proxy' : 'direct'}`;
    let d = dispatchers.get(key);
    if (!d) {
      d = viaProxy && options.proxyUrl
        ? new ProxyAgent({ uri: options.proxyUrl, requestTls: { rejectUnauthorized: !skipTls } })
        : new Agent({ connect: guardedConnector({ allow, lookup, rejectUnauthorized: !skipTls }), keepAliveTimeout: 4_000 });
      dispatchers.set(key, d);
    }
    return d;
  }

  /** The resolve-first check of one hop: scheme, then the literal or resolved addresses. */
  async function checkHop(url: URL): Promise<void> {
    const host = hostnameOf(url);
    if (allow.allowsHost(host, portOf(url))) return;
    if (parseIp(host)) {
      const refused = refusal(allow, host, host);
      if (refused) throw blocked(url, refused.message);
      return;
    }
    try {
      await resolveChecked(checkedLookup, host);
    } catch (err) {
      if (err instanceof BlockedAddressError) throw blocked(url, err.message);
      throw err;
    }
  }

  async function fetchOnce(url: URL, req: FetchRequest, headers: Record<string, string>, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    await checkHop(url);
    const viaProxy = req.proxy !== undefined && options.proxyUrl !== undefined;
    return request(url, {
      method: req.method ?? 'GET',
      headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
      signal,
      dispatcher: dispatcherFor(req.skipTlsVerification ?? false, viaProxy),
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    });
  }

  return {
    async fetch(req: FetchRequest): Promise<FetchResponse> {
      let url = parseTarget(req.url);
      const maxBytes = req.maxBytes ?? DEFAULT_MAX_BYTES;
      const maxRedirects = req.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
      const deadline = AbortSignal.timeout(req.timeoutMs);
      const signal = req.signal ? AbortSignal.any([deadline, req.signal]) : deadline;
      let headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'gzip, deflate, br' };
      for (const [name, value] of Object.entries(req.headers ?? {})) headers[name.toLowerCase()] = value;
      if (url.username || url.password) {
        // Credentials in the URL become Basic auth (RFC 7617) and leave the URL.
        headers.authorization ??= `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
        url.username = '';
        url.password = '';
      }
      const redirects: string[] = [];
      for (;;) {
        let res: Dispatcher.ResponseData;
        try {
          res = await fetchOnce(url, req, headers, signal);
        } catch (err) {
          throw mapFailure(err, url, deadline, req.timeoutMs, req.signal);
        }
        const location = res.headers.location;
        const locationValue = Array.isArray(location) ? location[0] : location;
        if (REDIRECT_STATUSES.has(res.statusCode) && locationValue) {
          discard(res.body);
          if (redirects.length >= maxRedirects) {
            throw new ServiceError('FETCH_FAILED', `Could not fetch ${displayUrl(redirects[0] ?? url)}: more than ${maxRedirects} redirects.`);
          }
          let next: URL;
          try {
            next = new URL(locationValue, url);
          } catch {
            throw new ServiceError('FETCH_FAILED', `Could not fetch ${displayUrl(url)}: it redirects to an invalid URL.`);
          }
          if (next.protocol !== 'http:' && next.protocol !== 'https:') {
            throw blocked(next, `${displayUrl(url)} redirects to the '${next.protocol.replace(/:$/, '')}' scheme (only http and https are allowed)`);
          }
          if (next.origin !== url.origin) {
            headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name)));
          }
          redirects.push(url.href);
          url = next;
          continue;
        }
        const responseHeaders = joinHeaders(res.headers);
        const declared = Number(responseHeaders['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes && !responseHeaders['content-encoding']) {
          discard(res.body);
          throw tooLarge(url, maxBytes);
        }
        let body: { bytes: Buffer; decoded: boolean };
        try {
          body = await readBody(res.body, responseHeaders['content-encoding'], maxBytes, url);
        } catch (err) {
          throw mapFailure(err, url, deadline, req.timeoutMs, req.signal);
        }
        if (body.decoded) {
          delete responseHeaders['content-encoding'];
          delete responseHeaders['content-length'];
        }
        const contentType = responseHeaders['content-type'];
        return {
          url: url.href,
          status: res.statusCode,
          headers: responseHeaders,
          ...(contentType ? { contentType } : {}),
          body: body.bytes,
          redirects,
        };
      }
    },
    async close() {
      const all = [...dispatchers.values()];
      dispatchers.clear();
      await Promise.all(all.map((d) => d.close()));
    },
  };
}
