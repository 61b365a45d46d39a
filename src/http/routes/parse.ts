/**
 * POST /v2/parse (interface-v2): multipart upload → parse() → `{ success: true, data }`.
 * Thin: receive under limits, validate options, call the runner, shape the response.
 *
 * With `Content-Type: application/json`, the body is `{uploadRef, ...ParseOptions}` instead: the
 * file was PUT to an upload URL before (docs/uploads.md), and is taken (once) for the caller's team.
 */
import fs from 'node:fs/promises';
import type { Request, Response } from 'express';
import { parseOptionsJson, parseOptions, type ParseOptions } from '../../parse/options.ts';
import { ServiceError } from '../../errors.ts';
import { ClientAbortedError, MAX_OPTIONS_BYTES, receiveUpload } from '../multipart.ts';
import type { ParseRunner } from '../../limits/runner.ts';
import type { UploadRefService } from '../../uploads/types.ts';
import { isJsonRequest, readJsonBody } from '../json-body.ts';
import { UploadSpool } from '../upload-spool.ts';
import { teamOwner } from './uploads.ts';
import { setAuditInput } from '../../audit/index.ts';
import { checkParseOptions } from '../billing.ts';
import { teamOf } from '../../../auth/api-keys.ts';
import { noteFormat } from '../operations.ts';

/** The caller's team for the runner's fair queue (src/limits/teams). */
function teamIdOf(res: Response): { teamId?: string } {
  const team = teamOf(res);
  return team ? { teamId: team.teamId } : {};
}

export interface ParseRouteDeps {
  runner: ParseRunner;
  spoolDir: string;
  /** Where `{uploadRef}` bodies are taken from. */
  uploads: UploadRefService;
}

export function parseRoute({ runner, spoolDir, uploads }: ParseRouteDeps) {
  const parseUploadRef = parseUploadRefRoute({ runner, uploads });
  return async (req: Request, res: Response): Promise<void> => {
    if (isJsonRequest(req)) {
      await parseUploadRef(req, res);
      return;
    }
    const spool = new UploadSpool(spoolDir);
    // Aborted when the client goes away, so that the parse stops with it.
    const clientGone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) clientGone.abort(new ClientAbortedError());
    };
    res.on('close', onClose);
    try {
      // Zero Data Retention with the options part first (as the SDKs send it): never spooled to disk.
      const upload = await receiveUpload(req, { spool, readOptions: parseOptionsJson, inMemory: (o) => o?.zeroDataRetention === true });
      const options: ParseOptions = upload.options ?? parseOptions({});
      res.locals.zeroDataRetention = options.zeroDataRetention;
      noteFormat(res, upload.filename);
      setAuditInput(res, { file: { name: upload.filename, size: upload.size, contentType: upload.contentType ?? null }, options });
      // Before the parse: ZDR refusal, 402 with the options' surcharges (src/http/billing.ts).
      await checkParseOptions(res, options);
      const bytes = upload.bytes ?? (await fs.readFile(upload.path ?? ''));
      // The bytes are in memory now; the spool file is not needed while the parse runs.
      await spool.dispose();
      const data = await runner(
        { bytes, filename: upload.filename, ...(upload.contentType ? { contentType: upload.contentType } : {}) },
        options,
        { signal: clientGone.signal, ...teamIdOf(res) },
      );
      res.status(200).json({ success: true, data });
    } finally {
      res.off('close', onClose);
      await spool.dispose();
    }
  };
}

/** `{uploadRef, ...ParseOptions}`: options are validated before the ref is spent. */
function parseUploadRefRoute({ runner, uploads }: Pick<ParseRouteDeps, 'runner' | 'uploads'>) {
  return async (req: Request, res: Response): Promise<void> => {
    const body = await readJsonBody(req, res, MAX_OPTIONS_BYTES);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ServiceError('BAD_REQUEST', 'A JSON parse request is an object `{"uploadRef": "upl_…", ...options}`.');
    }
    const { uploadRef, ...rest } = body as Record<string, unknown>;
    if (typeof uploadRef !== 'string') {
      throw new ServiceError(
        'BAD_REQUEST',
        'A JSON parse request needs `uploadRef` (from POST /v2/uploads, after the file was PUT to its `uploadUrl`). To send the file itself, use multipart/form-data with a `file` part.',
      );
    }
    const options = parseOptions(rest);
    await checkParseOptions(res, options);
    const clientGone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) clientGone.abort(new ClientAbortedError());
    };
    res.on('close', onClose);
    const taken = await uploads.take(teamOwner(res), uploadRef);
    noteFormat(res, taken.filename);
    setAuditInput(res, { file: { name: taken.filename, size: taken.bytes.length, contentType: taken.contentType ?? null }, options });
    try {
      // Zero Data Retention: the stored copy goes before the parse starts; the bytes are in memory.
      if (options.zeroDataRetention) await taken.release();
      const data = await runner(
        { bytes: taken.bytes, filename: taken.filename, ...(taken.contentType ? { contentType: taken.contentType } : {}) },
        options,
        { signal: clientGone.signal, ...teamIdOf(res) },
      );
      // Deleted right after the parse, before the answer (and on every failure, below).
      await taken.release();
      res.status(200).json({ success: true, data });
    } finally {
      res.off('close', onClose);
      await taken.release();
    }
  };
}
