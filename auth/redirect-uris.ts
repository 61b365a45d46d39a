/**
 * Redirect URI rules (spec, "OAuth for interactive clients" 5; DESIGN.md "Auth decisions"):
 * HTTPS, or loopback `http://localhost`, `http://127.0.0.1`, `http://[::1]` with any port. For
 * loopback the port may vary per run (RFC 8252 §7.3); host and path must match exactly.
 * The same rules apply to RFC 7591 registrations and to Client ID Metadata Documents.
 */

/** RFC 8252 §7.3 / §8.3: the loopback hosts a native app listens on. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** A registration may name at most this many redirect URIs, each at most this long. */
export const MAX_REDIRECT_URIS = 20;
export const MAX_REDIRECT_URI_LENGTH = 2000;

export interface RefusedRedirectUri {
  redirect_uri: string;
  /** Why it was not registered, in words a developer can act on. */
  reason: string;
}

export type RedirectUriCheck = { ok: true; uri: string } | { ok: false; reason: string };

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname);
}

/** Whether one redirect URI may be registered, and why not. */
export function checkRedirectUri(uri: string): RedirectUriCheck {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return { ok: false, reason: `longer than ${MAX_REDIRECT_URI_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  // RFC 6749 §3.1.2: the endpoint URI MUST NOT include a fragment component.
  if (url.hash !== '' || uri.includes('#')) return { ok: false, reason: 'a redirect URI must not have a fragment (RFC 6749 §3.1.2)' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'a redirect URI must not contain a user name or password' };
  if (url.protocol === 'https:') return { ok: true, uri };
  if (url.protocol === 'http:') {
    if (isLoopbackHttp(url)) return { ok: true, uri };
    return { ok: false, reason: `plain http is only allowed for loopback hosts (${LOOPBACK_HOSTS.join(', ')}); use https for '${url.hostname}'` };
  }
  return { ok: false, reason: `the '${url.protocol.replace(/:$/, '')}' scheme is not allowed: use https, or http on a loopback host (localhost, 127.0.0.1, [::1])` };
}

/** Splits requested redirect URIs into those allowed (order kept, duplicates removed) and those refused, with the reason. */
export function partitionRedirectUris(uris: readonly string[]): { allowed: string[]; refused: RefusedRedirectUri[] } {
  const allowed: string[] = [];
  const refused: RefusedRedirectUri[] = [];
  for (const uri of uris) {
    const check = checkRedirectUri(uri);
    if (check.ok) {
      if (!allowed.includes(check.uri)) allowed.push(check.uri);
    } else {
      refused.push({ redirect_uri: uri, reason: check.reason });
    }
  }
  return { allowed, refused };
}

/**
 * Whether a redirect URI sent to the authorization endpoint matches a registered one: exact
 * string comparison (RFC 6749 §3.1.2.3, OAuth 2.1 §2.3.1), except that for a loopback http URI
 * the port may differ (RFC 8252 §7.3); scheme, host, path and query stay exact.
 */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  let reg: URL;
  let req: URL;
  try {
    reg = new URL(registered);
    req = new URL(requested);
  } catch {
    return false;
  }
  if (!isLoopbackHttp(reg) || !isLoopbackHttp(req)) return false;
  if (req.hash !== '' || requested.includes('#')) return false;
  if (req.username !== '' || req.password !== '') return false;
  // Compare everything but the port, as written (the URL parser has normalized case and dots).
  const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  return withoutPort(reg) === withoutPort(req) && pathAsWritten(registered) === pathAsWritten(requested);
}

/** The path and query exactly as written after the authority (no dot-segment or case normalization). */
function pathAsWritten(uri: string): string {
  const afterScheme = uri.slice(uri.indexOf('//') + 2);
  const slash = afterScheme.search(/[/?]/);
  return slash === -1 ? '' : afterScheme.slice(slash);
}
