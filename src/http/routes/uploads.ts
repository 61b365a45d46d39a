/**
 * The upload command → uploadRef round trip over HTTP (issue 5 §5, docs/uploads.md):
 *
 *   POST /v2/uploads          API key; JSON `{filename}` → the ticket (uploadRef, uploadUrl, …)
 *   PUT  /v2/uploads/:token   no API key (the URL is the capability); the raw file as the body
 *
 * The PUT refuses before reading (and, for `Expect: 100-continue`, before the client sends a
 * byte) when the URL is unknown, used or expired, or the Content-Length is over 50 MB; a body
 * without a length is cut off at the limit. The token never reaches a log line (log.ts masks the
 * path) or an error message.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { teamOf } from '../../../auth/api-keys.ts';
import { ServiceError } from '../../errors.ts';
import { IncompleteUploadError } from '../../uploads/storage.ts';
import { ticketFilename } from '../../uploads/filename.ts';
import type { UploadRefs } from '../../uploads/service.ts';
import { isJsonRequest, readJsonBody } from '../json-body.ts';
import { ClientAbortedError } from '../multipart.ts';

const TICKET_BODY_LIMIT = 16 * 1024;
const UPLOAD_PATH = /^\/v2\/uploads\/[^/?]+(?:\?.*)?$/;

/** Requests whose `100 Continue` this module sends itself, once the upload URL is accepted. */
const continueDeferred = new WeakSet<IncomingMessage>();

/**
 * The server's `checkContinue` listener (RFC 9110 §10.1.1): `100 Continue` at once for every
 * request except a PUT to an upload URL, which gets it only once the URL and the declared size
 * are accepted, so that a refused upload is answered before the client sends the file.
 */
export function expectContinue(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method === 'PUT' && UPLOAD_PATH.test(req.url ?? '')) continueDeferred.add(req);
    else res.writeContinue();
    handler(req, res);
  };
}

/** `/v2/uploads` routes need the owner the API key established: `team:<id>` (tools/types.ts Caller.owner). */
export function teamOwner(res: Response): string {
  const team = teamOf(res);
  if (!team) throw new ServiceError('UNAUTHORIZED', "Missing API key. Send it in the Authorization header as 'Authorization: Bearer <API_KEY>'.");
  return `team:${team.teamId}`;
}

export function createUploadTicketRoute(uploads: UploadRefs): RequestHandler {
  return async (req: Request, res: Response) => {
    if (!isJsonRequest(req)) {
      throw new ServiceError('BAD_REQUEST', 'POST /v2/uploads expects a JSON body `{"filename": "report.pdf"}` with Content-Type: application/json.');
    }
    const body = await readJsonBody(req, res, TICKET_BODY_LIMIT);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ServiceError('BAD_REQUEST', 'POST /v2/uploads expects a JSON object `{"filename": "report.pdf"}`.');
    }
    const filename = ticketFilename((body as { filename?: unknown }).filename);
    const ticket = await uploads.create(teamOwner(res), { filename });
    res.status(200).json({ success: true, ...ticket });
  };
}

function declaredLength(req: Request): number | undefined {
  const raw = req.headers['content-length'];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

export function receiveUploadRoute(uploads: UploadRefs): RequestHandler {
  return async (req: Request, res: Response) => {
    const token = req.params.token;
    const type = req.headers['content-type']?.trim();
    if (type && /^multipart\//i.test(type)) {
      throw new ServiceError(
        'BAD_REQUEST',
        'PUT the file itself as the request body (`curl -T report.pdf <uploadUrl>`), not a multipart form.',
      );
    }
    try {
      const received = await uploads.receive(typeof token === 'string' ? token : '', req, {
        ...(type ? { contentType: type } : {}),
        ...(declaredLength(req) !== undefined ? { declaredBytes: declaredLength(req) } : {}),
        onAccepted: () => {
          if (continueDeferred.has(req)) res.writeContinue();
        },
      });
      res.status(200).json({ success: true, ...received });
    } catch (err) {
      if (err instanceof IncompleteUploadError) throw new ClientAbortedError();
      throw err;
    }
  };
}
