/**
 * The HTTP door's accounting (docs/billing.md): in front of a billed route,
 *
 *   1. the JSON body is read here (with the route's own limit; the route's parser then finds it
 *      read), so that `zeroDataRetention` from a team without ZDR is refused (403 ZDR_NOT_ENABLED)
 *      and the price's options are known;
 *   2. a team that cannot afford the least the operation costs gets 402 PAYMENT_REQUIRED before
 *      any work; that least price is held for the team until the answer is sent, so requests
 *      side by side cannot spend the same credits;
 *   3. the answer is charged when it is a success (`{success: true}`, status 2xx), once: under an
 *      `x-idempotency-key` the team already used, not again. The charge is written before the
 *      answer leaves, and `res.locals.creditsCharged` says how many credits it was (the audit
 *      event reads it). A failed request is never charged.
 *
 * Multipart /v2/parse carries its options inside the upload: the route hands them to
 * `checkParseOptions` before the parse runs.
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import { teamOf } from '../../auth/api-keys.ts';
import {
  factorsOf,
  NO_SURCHARGE,
  priceOf,
  REPRICED,
  requestFactors,
  wantsZdr,
  type Operation,
  type PageFactors,
  type Payer,
  type TeamAccounts,
} from '../accounts/index.ts';
import { ServiceError } from '../errors.ts';
import type { Logger } from '../log.ts';

export const IDEMPOTENCY_HEADER = 'x-idempotency-key';
const MAX_IDEMPOTENCY_KEY = 200;

/** What the charge of this response needs; in `res.locals.billing`. */
interface Billing {
  accounts: TeamAccounts;
  /** Aborted when the request ends (its answer sent or its connection gone): the credits held for it go back. */
  hold: AbortController;
  payer: Payer;
  operation: Operation;
  factors: PageFactors;
  idempotencyKey: string | undefined;
}

export interface MeterOptions {
  operation: Operation;
  /** Read the JSON body here with this limit (the route's own). Absent: the body is the route's (multipart parse). */
  jsonLimit?: string;
  /** The answer starts a job (crawl, batch scrape) whose pages are charged as they are stored: the start costs 0. */
  startsJob?: boolean;
}

export function idempotencyKeyOf(req: Request): string | undefined {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY) {
    throw new ServiceError('BAD_REQUEST', `The \`${IDEMPOTENCY_HEADER}\` header must be 1 to ${MAX_IDEMPOTENCY_KEY} characters.`);
  }
  return key;
}

function billingOf(res: Response): Billing | undefined {
  const value: unknown = res.locals.billing;
  return typeof value === 'object' && value !== null ? (value as Billing) : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Wraps `res.json` so that a success is charged before it is sent. */
function chargeOnSuccess(res: Response, billing: Billing, startsJob: boolean, logger: Logger): void {
  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    if (res.statusCode >= 300 || !isRecord(body) || body.success !== true) return send(body);
    const job = startsJob && typeof body.id === 'string' ? body.id : undefined;
    const data = billing.operation === 'map' ? body : (body.data ?? body);
    const units = startsJob ? 0 : priceOf(billing.accounts.prices, billing.operation, billing.factors, data);
    billing.accounts
      .charge(billing.payer, { operation: billing.operation, units, requestId: job, idempotencyKey: billing.idempotencyKey })
      .then(
        (charged) => {
          res.locals.creditsCharged = charged.units;
        },
        (err: unknown) => {
          // The work is done and the answer is the client's: it is sent; the failure is the operator's.
          logger.error({ err, teamId: billing.payer.teamId, operation: billing.operation }, 'could not record a charge');
        },
      )
      .finally(() => {
        if (!res.writableEnded) send(body);
      });
    return res;
  };
}

/** The accounting middleware in front of one billed route (after the API-key check). */
export function meter(accounts: TeamAccounts, logger: Logger, options: MeterOptions): RequestHandler {
  const readJson = options.jsonLimit === undefined ? undefined : express.json({ limit: options.jsonLimit });
  return async (req, res, next) => {
    const team = teamOf(res);
    if (!team) return next();
    const payer: Payer = { teamId: team.teamId, teamName: team.teamName, keyId: team.keyId };
    const idempotencyKey = idempotencyKeyOf(req);
    let factors = NO_SURCHARGE;
    if (readJson) {
      const failed = await new Promise<unknown>((resolve) => readJson(req, res, (err?: unknown) => resolve(err)));
      if (failed) return next(failed);
      await accounts.checkZdr(payer, wantsZdr(req.body));
      factors = requestFactors(req.body);
    }
    const hold = new AbortController();
    res.once('close', () => hold.abort());
    await accounts.admit(payer, options.operation, factors, idempotencyKey, hold.signal);
    const billing: Billing = { accounts, payer, operation: options.operation, factors, idempotencyKey, hold };
    res.locals.billing = billing;
    chargeOnSuccess(res, billing, options.startsJob === true, logger);
    next();
  };
}

/**
 * /v2/parse: its options once read (from the multipart body or the uploadRef JSON), before the
 * parse runs: the ZDR refusal and the 402 with the options' surcharges.
 */
export async function checkParseOptions(res: Response, options: { zeroDataRetention?: boolean; formats?: unknown; redactPII?: unknown }): Promise<void> {
  const billing = billingOf(res);
  if (!billing) return;
  await billing.accounts.checkZdr(billing.payer, options.zeroDataRetention === true);
  billing.factors = factorsOf(options);
  // The options' surcharges: the credits held for this request are held again at the new price.
  billing.hold.abort(REPRICED);
  billing.hold = new AbortController();
  const hold = billing.hold;
  res.once('close', () => hold.abort());
  await billing.accounts.admit(billing.payer, billing.operation, billing.factors, billing.idempotencyKey, hold.signal);
}

/**
 * The billed routes and their body limits (each the route's own: the body is read here first,
 * so a route that changes its limit changes it here too).
 */
const BILLED: Record<string, MeterOptions> = {
  '/v2/parse': { operation: 'parse' },
  '/v2/scrape': { operation: 'scrape', jsonLimit: '1mb' },
  '/v2/search': { operation: 'search', jsonLimit: '1mb' },
  '/v2/map': { operation: 'map', jsonLimit: '1mb' },
  '/v2/crawl': { operation: 'crawl', jsonLimit: '1mb', startsJob: true },
  '/v2/batch/scrape': { operation: 'batch_scrape', jsonLimit: '5mb', startsJob: true },
  // The job's spent credits are charged once when it ends (src/agent, wired in src/cli/serve.ts).
  '/v2/agent': { operation: 'agent', jsonLimit: '1mb', startsJob: true },
  '/v2/extract': { operation: 'extract', jsonLimit: '1mb', startsJob: true },
};

/** One middleware for every billed route (POST on the paths above); mounted after the API-key check. */
export function billedRoutes(accounts: TeamAccounts, logger: Logger): RequestHandler {
  const meters = new Map(Object.entries(BILLED).map(([path, options]) => [path, meter(accounts, logger, options)]));
  return (req, res, next) => {
    const handler = req.method === 'POST' ? meters.get(req.path) : undefined;
    if (!handler) return next();
    return handler(req, res, next);
  };
}
