/**
 * POST /v2/parse (interface-v2): multipart upload → parse() → `{ success: true, data }`.
 * Thin: receive under limits, validate options, call the runner, shape the response.
 */
import fs from 'node:fs/promises';
import type { Request, Response } from 'express';
import { parseOptionsJson, parseOptions, type ParseOptions } from '../../parse/options.ts';
import { ClientAbortedError, receiveUpload } from '../multipart.ts';
import type { ParseRunner } from '../../limits/runner.ts';
import { UploadSpool } from '../upload-spool.ts';

export interface ParseRouteDeps {
  runner: ParseRunner;
  spoolDir: string;
}

export function parseRoute({ runner, spoolDir }: ParseRouteDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const spool = new UploadSpool(spoolDir);
    // Aborted when the client goes away, so that the parse stops with it.
    const clientGone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) clientGone.abort(new ClientAbortedError());
    };
    res.on('close', onClose);
    try {
      const upload = await receiveUpload(req, { spool, readOptions: parseOptionsJson });
      const options: ParseOptions = upload.options ?? parseOptions({});
      const bytes = await fs.readFile(upload.path);
      // The bytes are in memory now; the spool file is not needed while the parse runs.
      await spool.dispose();
      const data = await runner(
        { bytes, filename: upload.filename, ...(upload.contentType ? { contentType: upload.contentType } : {}) },
        options,
        { signal: clientGone.signal },
      );
      res.status(200).json({ success: true, data });
    } finally {
      res.off('close', onClose);
      await spool.dispose();
    }
  };
}
