/**
 * Uploads in flight per client address and per API key: a request body of an upload route
 * (POST /v2/parse, PUT /v2/uploads/{token}) holds a slot from the moment it is admitted until
 * its body has arrived or its response has closed, whichever is first. Past either cap the
 * request is answered 429 before its body is read.
 *
 * A client address is the keyless limiter's (an IPv4 address, an IPv6 /64; `req.ip`, so the
 * `trust proxy` setting applies). A key is its id in the store, never the key itself. The counts
 * live only in memory and are never logged.
 */
import type { Request, RequestHandler, Response } from 'express';
import { teamOf } from '../../../auth/api-keys.ts';
import { ServiceError } from '../../errors.ts';
import { clientAddressKey } from '../../limits/keyless.ts';

export interface UploadSlotOptions {
  perClient: number;
  perKey: number;
}

/** What a refused client is told to wait: uploads take seconds, and a freed slot is reused at once. */
export const UPLOAD_RETRY_AFTER_SECONDS = 5;

class Counter {
  private readonly counts = new Map<string, number>();
  take(id: string, max: number): boolean {
    const n = this.counts.get(id) ?? 0;
    if (n >= max) return false;
    this.counts.set(id, n + 1);
    return true;
  }
  give(id: string): void {
    const n = (this.counts.get(id) ?? 1) - 1;
    if (n <= 0) this.counts.delete(id);
    else this.counts.set(id, n);
  }
}

function refusal(what: string, max: number): ServiceError {
  return new ServiceError(
    'RATE_LIMITED',
    `Too many uploads in flight ${what}: at most ${max} at once. Retry in ${UPLOAD_RETRY_AFTER_SECONDS} seconds, or once one of your uploads has finished.`,
    { retryAfterSeconds: UPLOAD_RETRY_AFTER_SECONDS },
  );
}

export function uploadSlots({ perClient, perKey }: UploadSlotOptions): RequestHandler {
  const clients = new Counter();
  const keys = new Counter();
  return (req: Request, res: Response, next) => {
    const client = clientAddressKey(req.ip ?? req.socket.remoteAddress ?? '');
    const keyId = teamOf(res)?.keyId;
    if (!clients.take(client, perClient)) throw refusal('from your address', perClient);
    if (keyId !== undefined && !keys.take(keyId, perKey)) {
      clients.give(client);
      throw refusal('for this API key', perKey);
    }
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      clients.give(client);
      if (keyId !== undefined) keys.give(keyId);
    };
    req.once('end', release);
    res.once('close', release);
    next();
  };
}
