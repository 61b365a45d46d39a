/**
 * The team usage endpoints, in the Firecrawl SDK's shapes (docs/billing.md):
 *
 *   GET /v2/team/credit-usage                    → {success, data: {remainingCredits, planCredits,
 *                                                   billingPeriodStart, billingPeriodEnd[, unlimited]}}
 *   GET /v2/team/credit-usage/historical[?byApiKey=true]
 *                                                → {success, periods: [{startDate, endDate, apiKey?, creditsUsed}]}
 *   GET /v2/team/token-usage                     → {success, data: {remainingTokens, planTokens, …, tokensUsed}}
 *   GET /v2/team/token-usage/historical[?byApiKey=true]
 *                                                → {success, periods: [{startDate, endDate, apiKey?, tokensUsed}]}
 *
 * Unlimited credits are reported as 99,999,999 with `unlimited: true`. `apiKey` is the key's id
 * (`key_…`, as `folio keys list` shows it) or `oauth:<client>`; a key itself is never shown.
 */
import express, { type Request, type Response, type Router } from 'express';
import { teamOf } from '../../../auth/api-keys.ts';
import type { TeamAccounts } from '../../accounts/index.ts';
import { ServiceError } from '../../errors.ts';

function teamIdOf(res: Response): string {
  const team = teamOf(res);
  if (!team) throw new ServiceError('UNAUTHORIZED', "Missing API key. Send it in the Authorization header as 'Authorization: Bearer <API_KEY>'.");
  return team.teamId;
}

function byApiKey(req: Request): boolean {
  const raw = req.query.byApiKey;
  if (raw === undefined) return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ServiceError('BAD_REQUEST', '`byApiKey` is `true` or `false`.');
}

export function teamRoutes(accounts: TeamAccounts): Router {
  const router = express.Router();
  router.get('/v2/team/credit-usage', async (_req, res) => {
    res.status(200).json({ success: true, data: await accounts.creditUsage(teamIdOf(res)) });
  });
  router.get('/v2/team/credit-usage/historical', async (req, res) => {
    res.status(200).json({ success: true, periods: await accounts.creditHistory(teamIdOf(res), byApiKey(req)) });
  });
  router.get('/v2/team/token-usage', async (_req, res) => {
    res.status(200).json({ success: true, data: await accounts.tokenUsage(teamIdOf(res)) });
  });
  router.get('/v2/team/token-usage/historical', async (req, res) => {
    res.status(200).json({ success: true, periods: await accounts.tokenHistory(teamIdOf(res), byApiKey(req)) });
  });
  return router;
}
