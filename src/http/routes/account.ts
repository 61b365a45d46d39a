/**
 * Account settings (spec, "OAuth for interactive clients" 9: revocation is done in the account
 * settings, MCP tab):
 *
 *   GET  /account                        signed in: the MCP tab, the user's connections (grants)
 *   POST /account/connections/revoke     grant_id + CSRF token: revokes one of the user's grants;
 *                                        its access tokens are refused at the next request
 *                                        (every verification looks the grant up, auth/access-tokens.ts)
 */
import { Router } from 'express';
import type { OAuthGrantDirectory } from '../../../auth/grants.ts';
import type { BrowserSessions } from '../../../auth/sessions.ts';
import type { Logger } from '../../log.ts';
import type { AccountStore } from '../../store/accounts.ts';
import { accountPage } from '../pages/account.ts';
import { errorPage } from '../pages/error.ts';
import { checkCsrf, field, formBody, sendPage } from '../pages/forms.ts';
import { pageSecurityHeaders } from '../pages/security-headers.ts';

export interface AccountRouteDeps {
  store: AccountStore & OAuthGrantDirectory;
  sessions: BrowserSessions;
  /** Client names for the list; a client that cannot be resolved is shown by its id. */
  clients: { resolve(clientId: string): Promise<{ clientName?: string }> };
  logger: Logger;
}

export function accountRoutes(deps: AccountRouteDeps): Router {
  const router = Router();
  router.use('/account', pageSecurityHeaders());

  router.get('/account', async (req, res) => {
    const session = await deps.sessions.read(req.headers.cookie);
    const user = session?.userId ? await deps.store.getUser(session.userId) : undefined;
    if (!session || !user) return res.redirect(303, '/oauth/sign-in');
    const grants = (await deps.store.listOAuthGrants()).filter((g) => g.userId === user.id && g.revokedAt === null);
    const names = new Map<string, string>();
    for (const g of grants) {
      if (names.has(g.clientId)) continue;
      const name = await deps.clients.resolve(g.clientId).then(
        (c) => c.clientName,
        () => undefined,
      );
      names.set(g.clientId, name ?? g.clientId);
    }
    const connections = grants.map((grant) => ({ grant, clientName: names.get(grant.clientId) ?? grant.clientId }));
    sendPage(res, 200, accountPage({ csrfToken: session.csrfToken, email: user.email, connections }));
  });

  router.post('/account/connections/revoke', formBody, async (req, res) => {
    const session = await deps.sessions.read(req.headers.cookie);
    if (!checkCsrf(req, res, session)) return;
    if (!session.userId) return res.redirect(303, '/oauth/sign-in');
    const id = field(req, 'grant_id') ?? '';
    const grant = id ? await deps.store.getOAuthGrant(id) : undefined;
    // Another user's grant is answered like an unknown one.
    if (!grant || grant.userId !== session.userId) {
      return sendPage(res, 404, errorPage('No such connection', 'This connection does not exist or is not yours. Reload your account settings.'));
    }
    await deps.store.revokeOAuthGrant(grant.id, new Date());
    deps.logger.info({ grantId: grant.id, clientId: grant.clientId }, 'OAuth grant revoked from the account settings');
    res.redirect(303, '/account');
  });

  return router;
}
