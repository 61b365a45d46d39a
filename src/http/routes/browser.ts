/**
 * Browser sessions and interact, in the Firecrawl SDK's shapes (docs/browser.md "Sessions"):
 *
 *   POST   /v2/browser                 {ttl?, activityTtl?} → {success, id, cdpUrl, expiresAt}
 *   GET    /v2/browser[?status=]       → {success, sessions: [{id, status, cdpUrl, liveViewUrl, streamWebView, createdAt, lastActivity}]}
 *   DELETE /v2/browser/:id             → {success, status: 'destroyed', sessionDurationMs, creditsBilled}
 *   POST   /v2/browser/:id/execute     {code, language: 'node', timeout?} → {success, stdout, stderr, result, exitCode, killed, truncated}
 *   POST   /v2/scrape/:id/interact     {code | prompt, language?, timeout?} → as execute
 *   DELETE /v2/scrape/:id/interact     → as DELETE /v2/browser/:id
 *
 * Thin: validate, call src/browser, shape. Another team's session or scrape is a 404 alike.
 */
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import { teamOf } from '../../../auth/api-keys.ts';
import { cdpUrlOf, DEFAULT_ACTIVITY_TTL_SECONDS, DEFAULT_SESSION_TTL_SECONDS, DEFAULT_EXECUTE_TIMEOUT_SECONDS, MAX_EXECUTE_TIMEOUT_SECONDS, type BrowserService, type BrowserSessionRecord, type ExecuteResult, type SessionOwner } from '../../browser/index.ts';
import { ServiceError } from '../../errors.ts';

const MAX_CODE = 100_000;

export interface BrowserRouteDeps {
  browser: BrowserService;
  /** The base of cdpUrl (the public URL, http → ws). */
  publicUrl: string;
}

const CreateBody = z
  .object({
    ttl: z.number().int().min(30).optional(),
    activityTtl: z.number().int().min(10).optional(),
    streamWebView: z.boolean().optional(),
    profile: z.unknown().optional(),
    integration: z.string().optional(),
    origin: z.string().optional(),
  })
  .strict();

const language = z.enum(['node', 'python', 'bash']).optional();
const timeout = z.number().min(1).max(MAX_EXECUTE_TIMEOUT_SECONDS).optional();
const ExecuteBody = z.object({ code: z.string().min(1).max(MAX_CODE), language, timeout, origin: z.string().optional() }).strict();
const InteractBody = z.object({ code: z.string().max(MAX_CODE).optional(), prompt: z.string().max(10_000).optional(), language, timeout, origin: z.string().optional() }).strict();

function zodMessage(error: z.ZodError): string {
  return error.issues.map((i) => `\`${i.path.join('.') || 'body'}\`: ${i.message}`).join('; ');
}

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new ServiceError('BAD_REQUEST', `Invalid ${what}: ${zodMessage(parsed.error)}`);
  return parsed.data;
}

function nodeOnly(lang: string | undefined): void {
  if (lang === undefined || lang === 'node') return;
  throw new ServiceError('BAD_REQUEST', `folio runs browser code in Node.js only: \`language: "${lang}"\` is not available. Send \`language: "node"\` with JavaScript that uses the \`page\`, \`context\` and \`browser\` handles (Playwright's), e.g. \`return await page.title()\`.`);
}

/** The caller: the team, and the key it presented (sessions die with that key). */
function ownerOf(res: Response): SessionOwner {
  const team = teamOf(res);
  if (!team) throw new ServiceError('UNAUTHORIZED', 'Browser sessions need an API key sent as `Authorization: Bearer <key>`.');
  return { teamId: team.teamId, keyId: team.keyId };
}

function sessionNotFound(id: string): ServiceError {
  return new ServiceError('NOT_FOUND', `No browser session ${id.slice(0, 64)} of your team is open: it was deleted, expired (ttl or activityTtl), or its API key was revoked. Create one with POST /v2/browser.`);
}

/** Aborted when the client goes away before the answer (the code's child is killed). */
function clientGone(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

const executeAnswer = (r: ExecuteResult) => ({ success: true, stdout: r.stdout, stderr: r.stderr, output: r.stdout, ...(r.result !== undefined ? { result: r.result } : {}), exitCode: r.exitCode, killed: r.killed, truncated: r.truncated });

const deleted = (s: { createdAt: Date; creditsBilled?: number } | undefined) => ({ success: true, status: 'destroyed', sessionDurationMs: s ? Date.now() - s.createdAt.getTime() : 0, creditsBilled: s?.creditsBilled ?? 0 });

type Handler = (req: Request, res: Response) => Promise<void>;
const wrap = (h: Handler): RequestHandler => (req, res, next) => void h(req, res).catch(next);

export function browserRoutes(deps: BrowserRouteDeps): Router {
  const { browser } = deps;
  const cdpUrl = (s: BrowserSessionRecord) => cdpUrlOf(deps.publicUrl, s);
  const router = express.Router();
  const json = express.json({ limit: '1mb' });

  router.post('/v2/browser', json, wrap(async (req, res) => {
    const body = parse(CreateBody, req.body, 'browser session request');
    if (body.profile !== undefined) throw new ServiceError('NOT_YET_SUPPORTED', 'Saved browser profiles (`profile`) are not available in folio: every session starts with an empty profile that is deleted when it ends. Leave out `profile`.');
    const owner = ownerOf(res);
    const session = await browser.sessions.create(owner, { kind: 'session', ttlSeconds: body.ttl ?? DEFAULT_SESSION_TTL_SECONDS, activityTtlSeconds: body.activityTtl ?? DEFAULT_ACTIVITY_TTL_SECONDS });
    res.status(200).json({ success: true, id: session.id, cdpUrl: cdpUrl(session), expiresAt: session.expiresAt.toISOString() });
  }));

  router.get('/v2/browser', wrap(async (req, res) => {
    const owner = ownerOf(res);
    const status = typeof req.query.status === 'string' ? req.query.status : undefined;
    if (status !== undefined && status !== 'active' && status !== 'destroyed') throw new ServiceError('BAD_REQUEST', '`status` is `active` or `destroyed`.');
    // Ended sessions are not kept: `destroyed` lists none.
    const sessions = status === 'destroyed' ? [] : browser.sessions.list(owner.teamId, 'session');
    res.status(200).json({
      success: true,
      sessions: sessions.map((s) => ({ id: s.id, status: 'active', cdpUrl: cdpUrl(s), liveViewUrl: '', streamWebView: false, createdAt: s.createdAt.toISOString(), lastActivity: s.lastActivity.toISOString(), expiresAt: s.expiresAt.toISOString() })),
    });
  }));

  router.delete('/v2/browser/:id', wrap(async (req, res) => {
    const owner = ownerOf(res);
    const id = String(req.params.id);
    const session = await browser.sessions.use(id, owner.teamId);
    if (!session || session.kind !== 'session') throw sessionNotFound(id);
    await browser.sessions.end(session, 'deleted by its owner');
    res.status(200).json(deleted(session));
  }));

  router.post('/v2/browser/:id/execute', json, wrap(async (req, res) => {
    const body = parse(ExecuteBody, req.body, 'execute request');
    nodeOnly(body.language);
    const owner = ownerOf(res);
    const id = String(req.params.id);
    const session = await browser.sessions.use(id, owner.teamId);
    if (!session || session.kind !== 'session') throw sessionNotFound(id);
    const result = await browser.execute(session, body.code, body.timeout ?? DEFAULT_EXECUTE_TIMEOUT_SECONDS, clientGone(res));
    res.status(200).json(executeAnswer(result));
  }));

  router.post('/v2/scrape/:id/interact', json, wrap(async (req, res) => {
    const body = parse(InteractBody, req.body, 'interact request');
    const code = body.code?.trim() ? body.code : undefined;
    const prompt = body.prompt?.trim() ? body.prompt : undefined;
    if (!code && !prompt) throw new ServiceError('BAD_REQUEST', 'Send `code` (Node.js run against the page, with `page`, `context` and `browser` handles) or `prompt` (what to do, in words).');
    if (code) nodeOnly(body.language);
    if (!code && !browser.canPrompt) throw browser.promptNotConfigured();
    const owner = ownerOf(res);
    const target = await browser.interact.open(String(req.params.id), owner);
    const signal = clientGone(res);
    const result = code ? await browser.executeOn(target, owner, code, body.timeout ?? DEFAULT_EXECUTE_TIMEOUT_SECONDS, signal) : await browser.promptOn(target, owner, prompt as string, signal);
    res.status(200).json(executeAnswer(result));
  }));

  router.delete('/v2/scrape/:id/interact', wrap(async (req, res) => {
    const owner = ownerOf(res);
    const target = await browser.interact.current(String(req.params.id), owner.teamId);
    if (target) await browser.endInteract(target, 'stopped by its owner');
    res.status(200).json(deleted(target ? (target.kind === 'held' ? target.held : target.session) : undefined));
  }));

  return router;
}
