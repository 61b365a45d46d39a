/**
 * The authorization endpoint and its pages (RFC 6749 §4.1, RFC 7636, RFC 8707, RFC 9207):
 *
 *   GET  /oauth/authorize            validates the request (auth/authorize.ts), keeps it server-side
 *                                    bound to the browser session, shows the next step
 *   GET  /oauth/authorize/continue   ?request=<id>: the next step of a kept request
 *   GET  /oauth/sign-in, POST /oauth/sign-in   email + password (generic failure, attempt limit)
 *   POST /oauth/team                 the team the connection is billed to (users with several)
 *   POST /oauth/consent              decision=approve → code; deny → access_denied
 *   POST /oauth/sign-out
 *
 * Every form carries the session's CSRF token; the request id alone is useless without the
 * session it is bound to. Every redirect back to the client carries `iss` (RFC 9207 §2).
 */
import { Router, type Request, type Response } from 'express';
import type { AuthorizationCodeIssuer } from '../../../auth/authorization-code-types.ts';
import {
  authorizationResponseUrl,
  parseStoredRequest,
  validateAuthorizationRequest,
  type AuthorizeClient,
  type ValidAuthorizationRequest,
} from '../../../auth/authorize.ts';
import type { BrowserSessions, Session } from '../../../auth/sessions.ts';
import type { SignInAttemptLimit } from '../../../auth/sign-in-attempts.ts';
import { normalizeEmail, verifyAgainstDummy, verifyPassword } from '../../../auth/users.ts';
import type { Logger } from '../../log.ts';
import type { AccountStore, StoredAuthorizationRequest } from '../../store/accounts.ts';
import { chooseTeamPage } from '../pages/choose-team.ts';
import { consentPage } from '../pages/consent.ts';
import { errorPage } from '../pages/error.ts';
import { checkCsrf, field, formBody, sendPage } from '../pages/forms.ts';
import { STYLESHEET, STYLESHEET_PATH } from '../pages/html.ts';
import { pageSecurityHeaders } from '../pages/security-headers.ts';
import { signInPage } from '../pages/sign-in.ts';

/** A kept authorization request must be answered within this time. */
export const AUTHORIZATION_REQUEST_TTL_MS = 10 * 60 * 1000;
export const SIGN_IN_FAILED = 'The email or password is not correct.';

export interface OAuthAuthorizeDeps {
  store: AccountStore;
  sessions: BrowserSessions;
  clients: { resolve(clientId: string): Promise<AuthorizeClient> };
  redirectUriMatches(registered: string, requested: string): boolean;
  /** The token side (auth/authorization-codes.ts); without it, Approve answers 503. */
  codes?: AuthorizationCodeIssuer | undefined;
  attempts: SignInAttemptLimit;
  /** RFC 9207 `iss`: the authorization server's issuer identifier (the public base URL). */
  issuer: string;
  /** `{mcp_url}/v2/mcp-oauth`. */
  resourceUrl: string;
  defaultResource: boolean;
  logger: Logger;
}

function clientLabel(r: ValidAuthorizationRequest): string {
  return r.clientName ?? new URL(r.redirectUri).host;
}

export function oauthAuthorizeRoutes(deps: OAuthAuthorizeDeps): Router {
  const router = Router();
  const { store, sessions } = deps;
  router.get(STYLESHEET_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('css').send(STYLESHEET);
  });
  router.use('/oauth', pageSecurityHeaders());

  const redirectBack = (res: Response, r: Pick<ValidAuthorizationRequest, 'redirectUri' | 'state'>, params: Record<string, string>): void => {
    res.redirect(302, authorizationResponseUrl(r.redirectUri, deps.issuer, { ...params, state: r.state }));
  };

  /** The kept request named by ?request= / the form, if it belongs to this session and is live. */
  const keptRequest = async (id: string | undefined, session: Session | undefined): Promise<{ stored: StoredAuthorizationRequest; request: ValidAuthorizationRequest } | undefined> => {
    if (!id || !session || id.length > 100) return undefined;
    const stored = await store.getAuthorizationRequest(id);
    if (!stored || stored.sessionHash !== session.idHash || Date.parse(stored.expiresAt) <= Date.now()) return undefined;
    const request = parseStoredRequest(stored.params);
    return request ? { stored, request } : undefined;
  };

  const lostRequest = (res: Response) =>
    sendPage(res, 400, errorPage('This sign-in has expired', 'The connection request is no longer valid (it expired, was already answered, or was started in another browser). Start connecting again from your application.'));

  /** Shows the next step of a kept request: sign-in, team choice or consent. */
  const nextStep = async (res: Response, session: Session, kept: { stored: StoredAuthorizationRequest; request: ValidAuthorizationRequest }) => {
    const { stored, request } = kept;
    if (!session.userId) {
      sendPage(res, 200, signInPage({ csrfToken: session.csrfToken, requestId: stored.id, clientName: clientLabel(request) }));
      return;
    }
    const user = await store.getUser(session.userId);
    const teams = await store.listUserTeams(session.userId);
    if (!user || teams.length === 0) {
      sendPage(res, 403, errorPage('No team to connect', 'Your account does not belong to any team yet. Ask the operator to add you to one (folio users add-team), then connect again.'));
      return;
    }
    let team = teams.find((t) => t.id === stored.teamId);
    if (!team && teams.length === 1) {
      team = teams[0];
      if (team) await store.setAuthorizationRequestTeam(stored.id, team.id);
    }
    if (!team) {
      sendPage(res, 200, chooseTeamPage({ csrfToken: session.csrfToken, requestId: stored.id, clientName: clientLabel(request), teams }));
      return;
    }
    sendPage(
      res,
      200,
      consentPage({
        csrfToken: session.csrfToken,
        requestId: stored.id,
        clientName: clientLabel(request),
        redirectHost: new URL(request.redirectUri).host,
        scopes: request.scope.split(' '),
        teamName: team.name,
        email: user.email,
      }),
    );
  };

  const continueTo = (res: Response, requestId: string) => res.redirect(303, `/oauth/authorize/continue?request=${encodeURIComponent(requestId)}`);

  router.get('/oauth/authorize', async (req, res) => {
    const v = await validateAuthorizationRequest(req.query as Record<string, unknown>, {
      resolveClient: (id) => deps.clients.resolve(id),
      redirectUriMatches: deps.redirectUriMatches,
      resourceUrl: deps.resourceUrl,
      defaultResource: deps.defaultResource,
    });
    if (!v.ok) {
      if (v.kind === 'page') sendPage(res, 400, errorPage(v.title, v.message));
      else redirectBack(res, v, { error: v.error, error_description: v.description });
      return;
    }
    let session = await sessions.read(req.headers.cookie);
    if (!session) {
      const started = await sessions.startAnonymous();
      session = started.session;
      res.append('Set-Cookie', started.setCookie);
    }
    const id = await store.createAuthorizationRequest({
      sessionHash: session.idHash,
      params: JSON.stringify(v.request),
      expiresAt: new Date(Date.now() + AUTHORIZATION_REQUEST_TTL_MS),
    });
    const kept = await keptRequest(id, session);
    if (!kept) throw new Error('the authorization request was not kept');
    await nextStep(res, session, kept);
  });

  router.get('/oauth/authorize/continue', async (req, res) => {
    const session = await sessions.read(req.headers.cookie);
    const kept = await keptRequest(typeof req.query.request === 'string' ? req.query.request : undefined, session);
    if (!kept || !session) return lostRequest(res);
    await nextStep(res, session, kept);
  });

  router.get('/oauth/sign-in', async (req, res) => {
    let session = await sessions.read(req.headers.cookie);
    if (session?.userId) return res.redirect(303, '/account');
    if (!session) {
      const started = await sessions.startAnonymous();
      session = started.session;
      res.append('Set-Cookie', started.setCookie);
    }
    sendPage(res, 200, signInPage({ csrfToken: session.csrfToken }));
  });

  router.post('/oauth/sign-in', formBody, async (req, res) => {
    const session = await sessions.read(req.headers.cookie);
    if (!checkCsrf(req, res, session)) return;
    const requestId = field(req, 'request');
    const kept = requestId ? await keptRequest(requestId, session) : undefined;
    if (requestId && !kept) return lostRequest(res);
    const email = normalizeEmail(field(req, 'email') ?? '');
    const password = field(req, 'password') ?? '';
    const ip = req.ip ?? 'unknown';
    const again = (status: number, error: string) =>
      sendPage(res, status, signInPage({ csrfToken: session.csrfToken, ...(kept ? { requestId: kept.stored.id, clientName: clientLabel(kept.request) } : {}), email, error }));
    const wait = await deps.attempts.retryAfterSeconds(ip, email);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      return again(429, `Too many failed sign-ins. Try again in ${Math.ceil(wait / 60)} minute(s).`);
    }
    const user = email && password ? await store.findUserByEmail(email) : undefined;
    const ok = user ? await verifyPassword(password, user.passwordHash) : await verifyAgainstDummy(password);
    if (!user || !ok) {
      await deps.attempts.recordFailure(ip, email);
      return again(401, SIGN_IN_FAILED);
    }
    await deps.attempts.recordSuccess(email);
    const signedIn = await sessions.signIn(session, user.id);
    res.append('Set-Cookie', signedIn.setCookie);
    if (kept) return continueTo(res, kept.stored.id);
    res.redirect(303, '/account');
  });

  router.post('/oauth/team', formBody, async (req, res) => {
    const session = await sessions.read(req.headers.cookie);
    if (!checkCsrf(req, res, session)) return;
    const kept = await keptRequest(field(req, 'request'), session);
    if (!kept || !session.userId) return lostRequest(res);
    const teams = await store.listUserTeams(session.userId);
    const team = teams.find((t) => t.id === field(req, 'team_id'));
    if (!team) return sendPage(res, 400, errorPage('Choose a team', 'Pick one of your teams from the list.'));
    await store.setAuthorizationRequestTeam(kept.stored.id, team.id);
    continueTo(res, kept.stored.id);
  });

  router.post('/oauth/consent', formBody, async (req, res) => {
    const session = await sessions.read(req.headers.cookie);
    if (!checkCsrf(req, res, session)) return;
    const kept = await keptRequest(field(req, 'request'), session);
    if (!kept || !session.userId) return lostRequest(res);
    const decision = field(req, 'decision');
    if (decision !== 'approve' && decision !== 'deny') return sendPage(res, 400, errorPage('Approve or deny', 'Answer with the Approve or the Deny button.'));
    const { stored, request } = kept;
    const teams = await store.listUserTeams(session.userId);
    const team = teams.find((t) => t.id === stored.teamId);
    if (!team) return continueTo(res, stored.id);
    // A request is answered once (a replayed form finds nothing).
    if (!(await store.deleteAuthorizationRequest(stored.id))) return lostRequest(res);
    if (decision === 'deny') return redirectBack(res, request, { error: 'access_denied', error_description: 'The user denied access.' });
    if (!deps.codes) {
      return sendPage(res, 503, errorPage('Not available', 'This folio server cannot issue authorization codes (its token endpoint is not configured).'));
    }
    const code = await deps.codes.issueCode({
      clientId: request.clientId,
      userId: session.userId,
      teamId: team.id,
      scope: request.scope,
      resource: request.resource,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
    });
    deps.logger.info({ clientId: request.clientId, teamId: team.id }, 'OAuth authorization approved');
    redirectBack(res, request, { code });
  });

  router.post('/oauth/sign-out', formBody, async (req: Request, res: Response) => {
    const session = await sessions.read(req.headers.cookie);
    if (!checkCsrf(req, res, session)) return;
    res.append('Set-Cookie', await sessions.signOut(session));
    res.redirect(303, '/oauth/sign-in');
  });

  return router;
}
