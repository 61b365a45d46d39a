/**
 * Test helpers: the real service (store, spool, parse pool, express app) on 127.0.0.1:0 with a
 * temp DATA_DIR, log lines captured, a raw HTTP client and a multipart body builder.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../../auth/api-keys.ts';
import { startService, type Service, type ServiceOptions } from '../../src/cli/serve.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { COMPILED_PARSE_WORKER } from '../helpers/build-global-setup.ts';
import { databaseText } from '../helpers/postgres.ts';
import { testStoreEnv } from '../helpers/test-store.ts';


export interface TestService extends Service {
  dataDir: string;
  /** The PostgreSQL database of the store, when the service runs on one (the `postgres+redis` vitest project). */
  databaseUrl: string | undefined;
  /**
   * DATABASE_URL and REDIS_URL of this service's store when it has them (`{}` on SQLite): a CLI
   * run or a second process given `{ DATA_DIR: dataDir, ...storeEnv }` works on the same store.
   */
  storeEnv: Record<string, string>;
  spoolDir: string;
  /** A valid key of team 'test-team'. */
  key: string;
  teamId: string;
  /** Everything logged so far, raw. */
  logText(): string;
  logLines(): Record<string, unknown>[];
  /** Creates another key for a team. */
  createKey(team: string): Promise<{ key: string; id: string }>;
  stop(): Promise<void>;
}

export async function startTestService(options: Omit<ServiceOptions, 'logger'> = {}, env: Record<string, string> = {}): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-http-'));
  // The postgres+redis project: a database and a Redis database of its own, unless the test gives them.
  const store = await testStoreEnv(dataDir);
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', FOLIO_MAX_CONCURRENT_PARSES: '2', ...store, ...env });
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      cb();
    },
  });
  const logger = createLogger({ level: 'info', destination });
  // The parse children run compiled, as under `npm start` (test/helpers/build-global-setup.ts builds
  // dist/ first); the TypeScript bootstrap is the parse pool's own tests' and the CLI's (tsx) path.
  const service = await startService(config, { parseWorkerPath: COMPILED_PARSE_WORKER, ...options, logger });
  const createKey = async (team: string) => {
    const key = generateApiKey();
    const t = await service.store.ensureTeam(team);
    const record = await service.store.createApiKey({ teamId: t.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
    return { key, id: record.id };
  };
  const first = await createKey('test-team');
  const team = await service.store.findTeamByName('test-team');
  return {
    ...service,
    dataDir,
    databaseUrl: config.databaseUrl,
    storeEnv: { ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : {}), ...(config.redisUrl ? { REDIS_URL: config.redisUrl } : {}) },
    spoolDir: path.join(dataDir, 'tmp'),
    key: first.key,
    teamId: team?.id ?? '',
    logText: () => chunks.join(''),
    logLines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    createKey,
    async stop() {
      await service.shutdown();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// The raw HTTP client and multipart builder, for files that talk to a server they did not start in-process.
export * from './client.ts';

export function spoolFiles(service: { spoolDir: string }): string[] {
  return fs.readdirSync(service.spoolDir);
}

/** Waits until the spool is empty (files are removed as the response goes out). */
export async function spoolDrained(service: { spoolDir: string }, ms = 2000): Promise<string[]> {
  const until = Date.now() + ms;
  while (spoolFiles(service).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  return spoolFiles(service);
}

/**
 * Writes `size` bytes of `fill` to a request as fast as it takes them (back-pressure honoured),
 * then ends it with `tail`; stops when the request is destroyed. Returns the function that starts
 * the writing; `onWrite(n)` counts each write.
 */
export function bodyPump(req: http.ClientRequest, size: number, fill: number, onWrite: (n: number) => void, tail?: string): () => void {
  const chunk = Buffer.alloc(256 * 1024, fill);
  let left = size;
  const pump = () => {
    while (left > 0 && !req.destroyed) {
      const n = Math.min(left, chunk.length);
      left -= n;
      onWrite(n);
      if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        req.once('drain', pump);
        return;
      }
    }
    if (left === 0 && !req.destroyed) req.end(tail);
  };
  return pump;
}

/**
 * Everything the store keeps at rest, as bytes: the SQLite file and its WAL, or every row of every
 * table of the PostgreSQL database as text. For tests that no secret is stored in clear.
 */
export async function storeAtRest(service: Pick<TestService, 'dataDir' | 'databaseUrl'>): Promise<Buffer> {
  if (service.databaseUrl !== undefined) return Buffer.from(await databaseText(service.databaseUrl));
  const files = fs.readdirSync(service.dataDir).filter((f) => f.startsWith('folio.db'));
  if (files.length === 0) throw new Error(`no folio.db in ${service.dataDir}`);
  return Buffer.concat(files.map((f) => fs.readFileSync(path.join(service.dataDir, f))));
}
