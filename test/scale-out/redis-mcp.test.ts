/**
 * Two folio instances on one PostgreSQL (DATABASE_URL) and one Redis (REDIS_URL), through their
 * HTTP ports and the real MCP SDK client (docs/scale-out.md "MCP state in Redis"):
 * - a long parse result continued (`parse{resultId, offset}`) on the other instance, for its owner
 *   only, its entry in Redis with the documented key and TTL; under zeroDataRetention nothing is
 *   written to Redis;
 * - a `notifications/cancelled` that a load balancer without stickiness sends to the other
 *   instance stops the call (Redis pub/sub);
 * - an upload ticket minted on one instance (a row of the shared store) taken by the other: its
 *   PUT and parse there work; bytes PUT to one instance are parsed on the other through the
 *   shared blob store (FOLIO_BLOB_URL=postgres, docs/blobs.md), and are gone after.
 *
 * The cancellation pair runs a parse "with known behaviour" (it runs until aborted, as in
 * test/mcp/cancellation.test.ts) so that the test does not race a real parse's speed; the other
 * pair parses with the real worker pool.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParseRunner } from '../../src/limits/runner.ts';
import { CANCEL_CHANNEL, RESULT_KEY_PREFIX } from '../../src/mcp/redis/index.ts';
import { DEFAULT_RESULT_TTL_MS } from '../../tools/parse-results.ts';
import { corpusPath } from '../helpers/corpus.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf, textOf } from '../mcp/helpers.ts';
import { curlUpload, sh } from '../uploads/helpers.ts';

const BLOG = corpusPath('html', 'markitdown', 'test_blog.html');

interface Continuation {
  totalChars: number;
  nextOffset: number | null;
  resultId: string | null;
  expiresAt: string | null;
  nextCall: { name: 'parse'; arguments: Record<string, unknown> } | null;
}

interface UploadInstructions {
  command: string;
  uploadRef: string;
  uploadUrl: string;
  method: 'PUT';
}

let cluster: TestPostgres;
let redis: TestRedis;
let inspect: Redis;

async function until(condition: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`${what}: not reached within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  [cluster, redis] = await Promise.all([startPostgres(), startRedis()]);
  inspect = new Redis(redis.url, { lazyConnect: true });
  await inspect.connect();
}, 120_000);
afterAll(async () => {
  inspect?.disconnect();
  await redis?.stop();
  await cluster?.stop();
});

const mcp = (service: TestService, key = service.key): Promise<Client> => connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${key}` });

describe('two instances on one PostgreSQL and one Redis: parse results and upload tickets', () => {
  let a: TestService;
  let b: TestService;
  const clients: Client[] = [];
  const client = async (service: TestService, key?: string) => {
    const c = await mcp(service, key);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    const env = { DATABASE_URL: await cluster.createDatabase(), REDIS_URL: redis.url, FOLIO_BLOB_URL: 'postgres' };
    a = await startTestService({}, env);
    b = await startTestService({}, env);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await a?.stop();
    await b?.stop();
  });

  /** A ticket minted by `on` for the blog page: the upload instructions of parse{filePath}. */
  async function ticket(on: Client): Promise<UploadInstructions> {
    const result = await on.callTool({ name: 'parse', arguments: { filePath: BLOG } });
    expect(result.isError, textOf(result)).toBeFalsy();
    return structuredOf(result).upload as UploadInstructions;
  }

  it('a result parsed on one instance is continued by resultId on the other, for its owner only; its entry lives in Redis with the TTL', async () => {
    const onA = await client(a);
    const onB = await client(b);
    const upload = await ticket(onA);
    await sh(upload.command);
    const first = await onA.callTool({ name: 'parse', arguments: { uploadRef: upload.uploadRef, maxChars: 1000 } });
    expect(first.isError, textOf(first)).toBeFalsy();
    let c = structuredOf(first).continuation as Continuation;
    expect(c.resultId).toMatch(/^res_/);
    expect(c.nextCall).not.toBeNull();
    let whole = String(structuredOf(first).markdown);

    // Where docs/scale-out.md says it is: one key with a PX expiry of the result TTL, no owner in clear.
    const key = `${RESULT_KEY_PREFIX}${c.resultId}`;
    const ttl = await inspect.pttl(key);
    expect(ttl).toBeGreaterThan(DEFAULT_RESULT_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(DEFAULT_RESULT_TTL_MS);
    const stored = (await inspect.get(key)) ?? '';
    expect(stored).not.toContain(a.teamId);

    // Another team on the other instance: answered like an unknown id.
    const { key: otherKey } = await b.createKey('other-team');
    const stranger = await client(b, otherKey);
    const refused = await stranger.callTool({ name: 'parse', arguments: { resultId: c.resultId, offset: c.nextOffset } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/unknown or has expired/);

    // The owner reads every further slice on B, then the last one on A again.
    let calls = 1;
    while (c.nextCall) {
      const on = calls % 3 === 0 ? onA : onB;
      const next = await on.callTool({ name: 'parse', arguments: c.nextCall.arguments });
      expect(next.isError, textOf(next)).toBeFalsy();
      whole += String(structuredOf(next).markdown);
      c = structuredOf(next).continuation as Continuation;
      calls++;
    }
    expect(calls).toBeGreaterThan(2);
    expect(whole.length).toBe(c.totalChars);
    expect(whole).toContain('#');
  });

  it('under zeroDataRetention nothing reaches Redis: no result key, and the continuation asks for the file again', async () => {
    await a.store.updateTeamPlan(a.teamId, { zdr: true }, new Date());
    const onA = await client(a);
    const upload = await ticket(onA);
    await sh(upload.command);
    const before = await inspect.keys(`${RESULT_KEY_PREFIX}*`);
    const first = await onA.callTool({ name: 'parse', arguments: { uploadRef: upload.uploadRef, maxChars: 1000, zeroDataRetention: true } });
    expect(first.isError, textOf(first)).toBeFalsy();
    const c = structuredOf(first).continuation as Continuation;
    expect(c.nextOffset).toBe(1000);
    expect(c.resultId).toBeNull();
    expect(textOf(first)).toMatch(/not kept because zeroDataRetention is on/);
    expect((await inspect.keys(`${RESULT_KEY_PREFIX}*`)).sort()).toEqual(before.sort());
  });

  it('a ticket minted on one instance is uploaded to and parsed on the other (the ticket is a row of the shared store)', async () => {
    const upload = await ticket(await client(a));
    expect(upload.uploadUrl.startsWith(`${a.url}/v2/uploads/`)).toBe(true);
    // A load balancer sends the PUT to B: B finds the ticket A minted.
    const put = await curlUpload({ ...upload, uploadUrl: upload.uploadUrl.replace(a.url, b.url) }, BLOG);
    expect(put.status, put.stdout).toBe(200);
    expect(put.json.uploadRef).toBe(upload.uploadRef);
    const parsed = await (await client(b)).callTool({ name: 'parse', arguments: { uploadRef: upload.uploadRef } });
    expect(parsed.isError, textOf(parsed)).toBeFalsy();
    expect(String(structuredOf(parsed).markdown)).toContain('#');
    // Spent once, the ticket is refused by the instance that minted it.
    const again = await (await client(a)).callTool({ name: 'parse', arguments: { uploadRef: upload.uploadRef } });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/already been used/);
  });

  it('bytes PUT to one instance are parsed on the other (the shared blob store), once', async () => {
    const upload = await ticket(await client(a));
    const put = await curlUpload(upload, BLOG);
    expect(put.status, put.stdout).toBe(200);
    const onB = await client(b);
    const parsed = await onB.callTool({ name: 'parse', arguments: { uploadRef: upload.uploadRef } });
    expect(parsed.isError, textOf(parsed)).toBeFalsy();
    expect(String(structuredOf(parsed).markdown)).toContain('#');
    // Spent: a second try, on either instance, says it was used.
    const again = await onB.callTool({ name: 'parse', arguments: { uploadRef: upload.uploadRef } });
    expect(textOf(again)).toMatch(/already been used/);
  });
});

describe('two instances on one PostgreSQL and one Redis: cancellation through a load balancer without stickiness', () => {
  let a: TestService;
  let b: TestService;
  let balancer: http.Server;
  let balancerUrl = '';
  /** Which instance each JSON-RPC method reached, in order. */
  const routed: { method: string; instance: 'a' | 'b' }[] = [];
  const started: ('a' | 'b')[] = [];
  const aborted: { instance: 'a' | 'b'; reason: unknown }[] = [];

  /** Starts like a parse, then runs until it is aborted. */
  const waitingRunner =
    (instance: 'a' | 'b'): ParseRunner =>
    (_input, _options, run) =>
      new Promise((_, reject) => {
        started.push(instance);
        run?.signal?.addEventListener(
          'abort',
          () => {
            aborted.push({ instance, reason: run.signal?.reason });
            reject(new Error('aborted'));
          },
          { once: true },
        );
      });

  beforeAll(async () => {
    const env = { DATABASE_URL: await cluster.createDatabase(), REDIS_URL: redis.url };
    a = await startTestService({ runner: waitingRunner('a') }, env);
    b = await startTestService({ runner: waitingRunner('b') }, env);
    // Round robin over the POSTs, message by message: no session stickiness (there is no session
    // to stick to). Other methods (the SDK's GET for a server stream, answered 405) go to A.
    let next = 0;
    balancer = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const instance = req.method !== 'POST' || next++ % 2 === 0 ? 'a' : 'b';
        const target = new URL(instance === 'a' ? a.url : b.url);
        try {
          const message = JSON.parse(body.toString('utf8')) as { method?: string };
          routed.push({ method: String(message.method), instance });
        } catch {
          routed.push({ method: `${req.method ?? ''} (no JSON)`, instance });
        }
        const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', () => res.destroy());
        res.on('close', () => upstream.destroy());
        upstream.end(body);
      });
    });
    await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve));
    balancerUrl = `http://127.0.0.1:${(balancer.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    balancer?.closeAllConnections();
    await new Promise<void>((resolve) => (balancer ? balancer.close(() => resolve()) : resolve()));
    await a?.stop();
    await b?.stop();
  });

  it('a cancel that reaches the other instance stops the call', async () => {
    const listener = new Redis(redis.url, { lazyConnect: true });
    await listener.connect();
    const relayed: string[] = [];
    listener.on('message', (_channel: string, message: string) => relayed.push(message));
    await listener.subscribe(CANCEL_CHANNEL);
    // The bytes go to A, where the balancer sends the call (initialize → A, initialized → B,
    // tools/call → A, notifications/cancelled → B; asserted below).
    const onA = await mcp(a);
    const ticket = structuredOf(await onA.callTool({ name: 'parse', arguments: { filePath: BLOG } })).upload as UploadInstructions;
    await sh(ticket.command);
    await onA.close();

    const client = await connectMcp(`${balancerUrl}/v2/mcp`, { authorization: `Bearer ${a.key}` });
    try {
      routed.length = 0;
      const controller = new AbortController();
      const call = client.callTool({ name: 'parse', arguments: { uploadRef: ticket.uploadRef } }, undefined, { signal: controller.signal, timeout: 60_000 });
      call.catch(() => undefined);
      await until(() => started.length > 0, 'the parse started');
      const runningOn = started[0];
      controller.abort('the user pressed stop');
      await expect(call).rejects.toThrow();
      await until(() => aborted.length > 0, 'the call was aborted');
      const call1 = routed.find((r) => r.method === 'tools/call');
      const cancel = routed.find((r) => r.method === 'notifications/cancelled');
      expect(call1?.instance).toBe(runningOn);
      expect(cancel?.instance).toBeDefined();
      expect(cancel?.instance).not.toBe(runningOn);
      expect(aborted[0]?.instance).toBe(runningOn);
      expect(String(aborted[0]?.reason)).toContain('the user pressed stop');
      const ran = runningOn === 'a' ? a : b;
      await until(() => ran.logText().includes('"outcome":"cancelled"'), 'the call logged as cancelled');
      // What travelled: the owner as a digest, the request id, the reason; no key.
      await until(() => relayed.length > 0, 'the cancellation was published');
      const message = JSON.parse(relayed[0] ?? '{}') as Record<string, unknown>;
      expect(message).toMatchObject({ o: expect.stringMatching(/^[0-9a-f]{64}$/), r: 'the user pressed stop' });
      expect(relayed[0]).not.toContain(a.key);
      expect(relayed[0]).not.toContain(a.teamId);
    } finally {
      await client.close();
      listener.disconnect();
    }
  });
});
