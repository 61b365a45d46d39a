/**
 * Helpers of the authorization endpoint tests: a started service with a registered client, a
 * user, and a tiny cookie-keeping browser over raw HTTP (no redirects followed).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ApprovedAuthorization, AuthorizationCodeIssuer } from '../../auth/authorization-code-types.ts';
import { hashPassword } from '../../auth/users.ts';
import { request, startTestService, type RawResponse, type TestService } from '../http/helpers.ts';

/** Records what the consent page approved, and hands out a random code (the token side is not under test here). */
export function recordingIssuer(): AuthorizationCodeIssuer & { approvals: ApprovedAuthorization[] } {
  const approvals: ApprovedAuthorization[] = [];
  return {
    approvals,
    async issueCode(approval) {
      approvals.push(approval);
      return randomBytes(16).toString('base64url');
    },
  };
}

export const PASSWORD = 'correct horse battery';

export async function createUser(service: TestService, email: string, teams: string[]): Promise<string> {
  const user = await service.store.createUser({ email, passwordHash: await hashPassword(PASSWORD) });
  if (!user) throw new Error('user exists');
  for (const name of teams) await service.store.addTeamMember(user.id, (await service.store.ensureTeam(name)).id);
  return user.id;
}

export async function registerClient(service: TestService, redirectUris: string[], name = 'Test Client'): Promise<string> {
  const res = await request(`${service.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ redirect_uris: redirectUris, client_name: name, token_endpoint_auth_method: 'none' })),
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return res.json.client_id as string;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A browser: keeps cookies, does not follow redirects. */
export class Browser {
  cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  private keep(res: RawResponse): RawResponse {
    const set = res.headers['set-cookie'] ?? [];
    for (const c of set) {
      const [pair] = c.split(';');
      const eq = (pair ?? '').indexOf('=');
      const name = (pair ?? '').slice(0, eq);
      const value = (pair ?? '').slice(eq + 1);
      if (/Max-Age=0/.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  async get(path: string): Promise<RawResponse> {
    return this.keep(await request(`${this.base}${path}`, { headers: this.cookieHeader() }));
  }

  async post(path: string, form: Record<string, string>): Promise<RawResponse> {
    return this.keep(
      await request(`${this.base}${path}`, {
        method: 'POST',
        headers: { ...this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from(new URLSearchParams(form).toString()),
      }),
    );
  }
}

/** The value of a hidden input in a page. */
export function hidden(page: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(page);
  if (!m?.[1]) throw new Error(`no hidden field ${name} in page:\n${page}`);
  return m[1];
}

export async function startAuthorizeService(env: Record<string, string> = {}) {
  const codes = recordingIssuer();
  const service = await startTestService({ authorizationCodes: codes }, env);
  return { service, codes };
}
