/**
 * Agent and extract (Firecrawl v2 shapes, docs/agent.md), owner-bound:
 *
 *   POST   /v2/agent               → {success, id}            (503 NOT_CONFIGURED without an LLM)
 *   GET    /v2/agent               → {success, agents, next?}  (?before=<unix ms>)
 *   GET    /v2/agent/:id           → {success, status, data?, error?, warning?, creditsUsed, expiresAt, model}
 *   DELETE /v2/agent/:id           → {success, status: 'cancelled'}
 *   GET    /v2/agent/:id/trace     → {success, id, events, creditsUsed}
 *   POST   /v2/extract             → {success, id}
 *   GET    /v2/extract/:id         → {success, status, data?, sources?, warning?, error?, creditsUsed, expiresAt}
 *   DELETE /v2/extract/:id, GET /v2/extract/:id/trace   as for the agent
 */
import express, { type Request, type Router } from 'express';
import type { AgentService } from '../../agent/index.ts';
import { ServiceError } from '../../errors.ts';
import type { PublicUrls } from '../../public-urls.ts';
import type { AgentJobKind } from '../../store/agent-jobs.ts';
import { ownerOf } from './crawl.ts';

export interface AgentRouteDeps {
  agents: AgentService;
  urls: PublicUrls;
}

function idParam(req: Request): string {
  const id = req.params.id;
  return typeof id === 'string' ? id : '';
}

function jobRoutes(router: Router, deps: AgentRouteDeps, kind: AgentJobKind): void {
  const prefix = `/v2/${kind}`;
  router.post(prefix, express.json({ limit: '1mb' }), async (req, res) => {
    const { id, warning } = await deps.agents.start(ownerOf(res), kind, req.body);
    res.status(200).json({ success: true, id, ...(warning ? { warning } : {}) });
  });
  router.get(`${prefix}/:id`, async (req, res) => {
    const view = await deps.agents.status(ownerOf(res), kind, idParam(req));
    res.status(200).json({ success: true, ...view });
  });
  router.delete(`${prefix}/:id`, async (req, res) => {
    const status = await deps.agents.cancel(ownerOf(res), kind, idParam(req));
    res.status(200).json({ success: true, status });
  });
  router.get(`${prefix}/:id/trace`, async (req, res) => {
    const id = idParam(req);
    const trace = await deps.agents.trace(ownerOf(res), kind, id);
    res.status(200).json({ success: true, id, ...trace });
  });
}

export function agentRoutes(deps: AgentRouteDeps): Router {
  const router = express.Router();
  router.get('/v2/agent', async (req, res) => {
    const raw = req.query.before;
    if (raw !== undefined && (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw))) {
      throw new ServiceError('BAD_REQUEST', 'Query parameter `before` must be a unix timestamp in milliseconds.');
    }
    const { agents, nextBefore } = await deps.agents.list(ownerOf(res), raw === undefined ? undefined : Number(raw));
    res.status(200).json({ success: true, agents, ...(nextBefore !== undefined ? { next: `${deps.urls.base}/v2/agent?before=${nextBefore}` } : {}) });
  });
  jobRoutes(router, deps, 'agent');
  jobRoutes(router, deps, 'extract');
  return router;
}
