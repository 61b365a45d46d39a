/**
 * The team's queue as the Firecrawl SDK reads it (docs/limits.md):
 *
 *   GET /v2/team/queue-status   → { success, jobsInQueue, activeJobsInQueue, waitingJobsInQueue,
 *                                   maxConcurrency, mostRecentSuccess }   (SDK `getQueueStatus`)
 *   GET /v2/concurrency-check   → { success, concurrency, maxConcurrency } (SDK `getConcurrency`)
 *
 * Jobs are the team's parses, scrapes, searches and maps running or waiting in its fair queue on
 * this instance; `mostRecentSuccess` is when one last ended well (null since the start).
 */
import express, { type Router } from 'express';
import { teamOf } from '../../../auth/api-keys.ts';
import { ServiceError } from '../../errors.ts';
import type { TeamLimits } from '../../limits/teams/index.ts';

function teamIdOf(res: express.Response): string {
  const team = teamOf(res);
  if (!team) throw new ServiceError('UNAUTHORIZED', 'An API key is required: send `Authorization: Bearer <API_KEY>`.');
  return team.teamId;
}

export function teamQueueRoutes(limits: Pick<TeamLimits, 'queueStatus' | 'concurrency'>): Router {
  const router = express.Router();
  router.get('/v2/team/queue-status', async (_req, res) => {
    res.json({ success: true, ...(await limits.queueStatus(teamIdOf(res))) });
  });
  router.get('/v2/concurrency-check', async (_req, res) => {
    res.json({ success: true, ...(await limits.concurrency(teamIdOf(res))) });
  });
  return router;
}
