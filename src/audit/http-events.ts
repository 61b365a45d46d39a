/**
 * Audit events of HTTP /v2 operations: a middleware notes when a request starts, catches the JSON
 * body it answers with (for the error code and `data.metadata.numPages`), and when the response
 * has gone out hands one event to `emit`. It never delays the response: the event is built after
 * `finish` (or `close`, for a client that went away: status 499).
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { teamOf } from '../../auth/api-keys.ts';
import { describeInput, fileNameHash, pagesOf, type AuditEvent, type AuditFile } from './event.ts';

/** What a route that reads its own body (multipart parse, uploadRef) tells the audit middleware. */
export interface AuditInput {
  file?: { name: string; size: number | null; contentType?: string | null };
  /** The request's options as the route read them (a JSON object). */
  options?: unknown;
}

const UUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The operation a /v2 request is: its path after `/v2/` with `.` between segments, ids left out;
 * a GET of one job is `….status`, a DELETE `….cancel` (`crawl.status`, `batch.scrape.cancel`).
 */
export function operationOf(method: string, originalUrl: string): string {
  const path = originalUrl.split(/[?#]/)[0] ?? '';
  const segments = path.replace(/^\/v2\/?/, '').split('/').filter(Boolean);
  const hasId = segments.some((s) => UUID_SEGMENT.test(s));
  const named = segments.filter((s) => !UUID_SEGMENT.test(s)).map((s) => s.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40));
  const base = named.join('.') || 'root';
  if (hasId && UUID_SEGMENT.test(segments[segments.length - 1] ?? '')) {
    if (method === 'GET') return `${base}.status`;
    if (method === 'DELETE') return `${base}.cancel`;
  }
  return method === 'POST' || method === 'GET' ? base : `${base}.${method.toLowerCase()}`;
}

export function setAuditInput(res: Response, input: AuditInput): void {
  res.locals.auditInput = input;
}

function auditInputOf(res: Response): AuditInput | undefined {
  const value: unknown = res.locals.auditInput;
  return typeof value === 'object' && value !== null ? (value as AuditInput) : undefined;
}

function fileOf(input: AuditInput | undefined): AuditFile | null {
  if (!input?.file) return null;
  return { nameSha256: fileNameHash(input.file.name), size: input.file.size, contentType: input.file.contentType ?? null };
}

export function auditHttpMiddleware(emit: (teamId: string, event: AuditEvent) => void): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    if (typeof res.locals.requestId !== 'string') res.locals.requestId = randomUUID();
    let answered: unknown;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      answered = body;
      return json(body);
    };
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      const team = teamOf(res);
      if (!team) return;
      const input = auditInputOf(res);
      const described = describeInput(input?.options ?? req.body);
      const answer = typeof answered === 'object' && answered !== null ? (answered as Record<string, unknown>) : {};
      const status = res.writableFinished ? res.statusCode : 499;
      const credits: unknown = res.locals.creditsCharged;
      const oauth = team.keyId.startsWith('oauth:');
      emit(team.teamId, {
        version: 1,
        time: new Date().toISOString(),
        requestId: String(res.locals.requestId),
        teamId: team.teamId,
        teamName: team.teamName,
        actor: oauth ? { kind: 'oauth', userId: team.keyId.slice('oauth:'.length) } : { kind: 'api-key', keyId: team.keyId },
        door: 'http',
        operation: operationOf(req.method, req.originalUrl),
        file: fileOf(input),
        ...described,
        status,
        errorCode: answer.success === false && typeof answer.code === 'string' ? answer.code : null,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
        pages: pagesOf(answer.data),
        credits: typeof credits === 'number' && Number.isFinite(credits) ? credits : null,
      });
    };
    res.once('finish', end);
    res.once('close', end);
    next();
  };
}
