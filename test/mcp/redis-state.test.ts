/**
 * The MCP state in Redis (src/mcp/redis) against a real redis-server: the continuation store's
 * owner check, expiry (Redis's own PX), shared budget and eviction of the oldest; the cancellation
 * relay between two "instances" (two states on one Redis, each with its RunningCalls registry),
 * its owner check, and messages it drops; a Redis that stops answering (the parse tool then
 * answers its first slice without a resultId).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMcpRedisState, CANCEL_CHANNEL, RESULT_KEY_PREFIX, RESULTS_USED_KEY, type McpRedisState } from '../../src/mcp/redis/index.ts';
import { CancelledByClientError, RunningCalls } from '../../src/mcp/running-calls.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { parseTool } from '../../tools/parse.ts';
import { corpusReader } from './helpers.ts';

let redis: TestRedis;
let raw: Redis;
const opened: McpRedisState[] = [];
const errors: string[] = [];

async function open(options: { ttlMs?: number; budgetChars?: number } = {}): Promise<McpRedisState> {
  const state = await openMcpRedisState({ url: redis.url, onError: (_err, what) => errors.push(what), ...options });
  opened.push(state);
  return state;
}

async function until(condition: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`${what}: not reached within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url);
}, 30_000);
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  raw?.disconnect();
  await redis?.stop();
});

describe('continuation store in Redis', () => {
  it('a result put by one instance is read by another, for its owner only', async () => {
    await raw.flushdb();
    const [one, two] = [await open(), await open()];
    const kept = await one.results.put('team:t1', 'x'.repeat(500), { metadata: { title: 'T' } });
    expect(kept?.resultId).toMatch(/^res_[A-Za-z0-9_-]{24}$/);
    const got = await two.results.get('team:t1', kept?.resultId ?? '');
    expect(got?.markdown).toBe('x'.repeat(500));
    expect(got?.data).toEqual({ metadata: { title: 'T' } });
    expect(got?.expiresAt.getTime()).toBe(kept?.expiresAt.getTime());
    expect(await two.results.get('team:t2', kept?.resultId ?? '')).toBeUndefined();
    expect(await two.results.get('team:t1', 'res_unknown')).toBeUndefined();
    expect(two.results.sharedAcrossInstances).toBe(true);
  });

  it('expires by itself after its TTL', async () => {
    await raw.flushdb();
    const state = await open({ ttlMs: 300 });
    const kept = await state.results.put('team:t1', 'short-lived', {});
    expect(await state.results.get('team:t1', kept?.resultId ?? '')).toBeDefined();
    await new Promise((r) => setTimeout(r, 400));
    expect(await state.results.get('team:t1', kept?.resultId ?? '')).toBeUndefined();
    expect(await raw.exists(`${RESULT_KEY_PREFIX}${kept?.resultId ?? ''}`)).toBe(0);
  });

  it('keeps every instance within one budget: the oldest go first, a result over the whole budget is not kept', async () => {
    await raw.flushdb();
    // Sizes count the markdown and the JSON of the data ({} = 2 characters).
    const [one, two] = [await open({ budgetChars: 1000 }), await open({ budgetChars: 1000 })];
    const first = await one.results.put('team:t1', 'a'.repeat(398), {});
    const second = await two.results.put('team:t1', 'b'.repeat(398), {});
    expect(Number(await raw.get(RESULTS_USED_KEY))).toBe(800);
    const third = await one.results.put('team:t1', 'c'.repeat(398), {});
    expect(await two.results.get('team:t1', first?.resultId ?? '')).toBeUndefined();
    expect((await one.results.get('team:t1', second?.resultId ?? ''))?.markdown).toBe('b'.repeat(398));
    expect((await one.results.get('team:t1', third?.resultId ?? ''))?.markdown).toBe('c'.repeat(398));
    expect(Number(await raw.get(RESULTS_USED_KEY))).toBe(800);
    expect(await one.results.put('team:t1', 'd'.repeat(1000), {})).toBeUndefined();
    // Nothing was evicted for a result that could never fit.
    expect((await one.results.get('team:t1', second?.resultId ?? ''))?.markdown).toBe('b'.repeat(398));
  });

  it('drops expired entries from the budget when the next result is put', async () => {
    await raw.flushdb();
    const short = await open({ ttlMs: 200, budgetChars: 1000 });
    await short.results.put('team:t1', 'a'.repeat(598), {});
    await new Promise((r) => setTimeout(r, 300));
    await short.results.put('team:t1', 'b'.repeat(98), {});
    expect(Number(await raw.get(RESULTS_USED_KEY))).toBe(100);
    expect(await raw.zcard('folio:mcp:results:index')).toBe(1);
  });
});

describe('when Redis stops answering', () => {
  it('put and get give up after a bounded wait with a ServiceError that says what to do, and the error is reported', async () => {
    const own = await startRedis();
    const told: string[] = [];
    const state = await openMcpRedisState({ url: own.url, onError: (_err, what) => told.push(what) });
    try {
      const kept = await state.results.put('team:t1', 'before', {});
      await own.stop();
      const started = Date.now();
      await expect(state.results.put('team:t1', 'after', {})).rejects.toMatchObject({ name: 'ServiceError', message: expect.stringMatching(/not kept for continuation/) });
      await expect(state.results.get('team:t1', kept?.resultId ?? '')).rejects.toMatchObject({ message: expect.stringMatching(/call `parse` again with the file and an `offset`/i) });
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(told).toEqual(expect.arrayContaining(['MCP continuation store: put failed', 'MCP continuation store: get failed']));
      // The parse tool still answers its first slice, without a resultId, saying why.
      const parse = parseTool({ runner: inProcessRunner(), localFiles: corpusReader, results: state.results });
      const input = parse.inputSchema.parse({ filePath: 'html/markitdown/test_blog.html', maxChars: 500 });
      const result = await parse.run(input, { caller: { kind: 'api-key', owner: 'team:t1' }, signal: new AbortController().signal, progress: () => undefined });
      const continuation = result.structured.continuation as { resultId: string | null; nextOffset: number | null; nextCall: unknown };
      expect(String(result.structured.markdown)).toHaveLength(500);
      expect(continuation).toMatchObject({ resultId: null, nextOffset: 500, nextCall: null });
      expect(result.text).toMatch(/not kept for continuation.*"offset": 500/s);
    } finally {
      await state.close();
    }
  }, 30_000);
});

describe('cancellation relay', () => {
  it('a cancellation that finds no call here stops the owner’s call with that id on another instance, and no other', async () => {
    const [here, there] = [new RunningCalls({ relay: (await open()).cancels }), new RunningCalls({ relay: (await open()).cancels })];
    const mine = new AbortController();
    const sameIdOtherOwner = new AbortController();
    const sameNumberAsString = new AbortController();
    there.register('team:t1', 7, mine);
    there.register('team:t2', 7, sameIdOtherOwner);
    there.register('team:t1', '7', sameNumberAsString);
    expect(here.cancel('team:t1', 7, 'stop it')).toBe(false);
    await until(() => mine.signal.aborted, 'the call on the other instance aborted');
    expect(mine.signal.reason).toBeInstanceOf(CancelledByClientError);
    expect(String((mine.signal.reason as Error).message)).toContain('stop it');
    // Give the other messages time to arrive if they were (wrongly) sent.
    await new Promise((r) => setTimeout(r, 200));
    expect(sameIdOtherOwner.signal.aborted).toBe(false);
    expect(sameNumberAsString.signal.aborted).toBe(false);
  });

  it('a call that runs here is cancelled here without a message; malformed messages on the channel are dropped', async () => {
    const listener = new Redis(redis.url);
    const heard: string[] = [];
    listener.on('message', (_c: string, m: string) => heard.push(m));
    await listener.subscribe(CANCEL_CHANNEL);
    try {
      const running = new RunningCalls({ relay: (await open()).cancels });
      const local = new AbortController();
      running.register('team:t1', 'abc', local);
      expect(running.cancel('team:t1', 'abc')).toBe(true);
      expect(local.signal.aborted).toBe(true);

      const victim = new AbortController();
      running.register('team:t1', 1, victim);
      for (const junk of ['not json', '{}', JSON.stringify({ o: 'team:t1', i: 1 }), JSON.stringify({ o: 'f'.repeat(64), i: { x: 1 } })]) await raw.publish(CANCEL_CHANNEL, junk);
      await until(() => heard.length >= 4, 'the junk went round');
      await new Promise((r) => setTimeout(r, 100));
      expect(victim.signal.aborted).toBe(false);
      // Only the junk was published: the local cancellation sent nothing.
      expect(heard).toHaveLength(4);
    } finally {
      listener.disconnect();
    }
  });
});
