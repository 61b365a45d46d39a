/**
 * The only reader of `process.env`. One schema, one frozen Config; everything else is handed
 * the values it needs.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Parses running at once (one worker thread each); further requests wait in a queue. */
  FOLIO_MAX_CONCURRENT_PARSES: z.coerce.number().int().min(1).max(256).default(Math.max(2, os.availableParallelism())),
  /** Parses waiting for a worker before new requests get 429. */
  FOLIO_MAX_QUEUED_PARSES: z.coerce.number().int().min(0).max(100_000).default(64),
  /** Heap limit of one parse worker, in MB: a hostile file exhausts its worker, not the server. */
  FOLIO_PARSE_WORKER_MEMORY_MB: z.coerce.number().int().min(64).max(65_536).default(2048),
});

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absolute path; holds the SQLite file and upload spool. */
  readonly dataDir: string;
  readonly logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  readonly maxConcurrentParses: number;
  readonly maxQueuedParses: number;
  readonly parseWorkerMemoryMb: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    maxConcurrentParses: e.FOLIO_MAX_CONCURRENT_PARSES,
    maxQueuedParses: e.FOLIO_MAX_QUEUED_PARSES,
    parseWorkerMemoryMb: e.FOLIO_PARSE_WORKER_MEMORY_MB,
  });
}
