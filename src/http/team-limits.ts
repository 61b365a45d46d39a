/**
 * The HTTP door of the team limits (src/limits/teams, docs/limits.md), after the API-key check:
 *
 * - `teamRate`: every /v2 request of a team counts against its plan's requests per minute;
 *   over it → 429 RATE_LIMITED with `Retry-After`.
 * - `teamJob`: scrape, search and map hold one of the team's concurrent places from the moment
 *   their body is read until their response is sent; the parse inside a scrape (or a search's
 *   result scrapes) runs on that place. A request that waited has the wait taken off its
 *   `timeout` (it is rewritten in the body: the operation then has only what is left), and
 *   `metadata.concurrencyLimited` / `concurrencyQueueDurationMs` on its parsed documents.
 *   POST /v2/parse takes its place in the parse runner instead, once the upload is read.
 */
import express, { type RequestHandler } from 'express';
import { teamOf } from '../../auth/api-keys.ts';
import type { TeamLimits } from '../limits/teams/index.ts';
import { ClientAbortedError } from './multipart.ts';

export function teamRate(limits: Pick<TeamLimits, 'admit'>): RequestHandler {
  return async (_req, res, next) => {
    const team = teamOf(res);
    if (team) await limits.admit(team.teamId);
    next();
  };
}

function bodyTimeout(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const timeout = (body as { timeout?: unknown }).timeout;
  return typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0 ? timeout : undefined;
}

/**
 * Holds a team place for the rest of the request. `defaultTimeoutMs` is the operation's own
 * default `timeout`; `what` names it in messages. Mounted before the route on the same path.
 */
export function teamJob(limits: Pick<TeamLimits, 'job'>, what: string, defaultTimeoutMs: number, bodyLimit = '1mb'): RequestHandler[] {
  const hold: RequestHandler = async (req, res, next) => {
    const team = teamOf(res);
    if (!team) {
      next();
      return;
    }
    const clientGone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) clientGone.abort(new ClientAbortedError());
    };
    res.on('close', onClose);
    const timeoutMs = bodyTimeout(req.body) ?? defaultTimeoutMs;
    let started = false;
    try {
      await limits.job(team.teamId, { timeoutMs, signal: clientGone.signal, what }, (remainingMs, held) => {
        started = true;
        res.off('close', onClose);
        if (held.waited && typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body)) {
          (req.body as Record<string, unknown>).timeout = remainingMs;
        }
        return new Promise<void>((resolve, reject) => {
          // The place is given back when the response is out (or the client gone); a failed
          // request does not count as the team's `mostRecentSuccess`.
          res.once('close', () => (res.statusCode < 400 ? resolve() : reject(new Error(`answered ${res.statusCode}`))));
          next();
        });
      });
    } catch (err) {
      // Once the route ran, it answered itself; before, the refusal (429, 408) is the answer.
      if (!started) throw err;
    } finally {
      res.off('close', onClose);
    }
  };
  // The JSON body is read first (its `timeout`); the route's own parser then sees it parsed.
  return [express.json({ limit: bodyLimit }), hold];
}
