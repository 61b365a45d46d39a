/**
 * The fair queue's order on its own (src/limits/teams/fair-queue.ts, through the entry file):
 * round-robin across teams, FIFO within one, each team's limit, the bound, the wait timeout and
 * a client that goes away. The HTTP behaviour is in team-fair-queue.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FairQueue, type Lease } from '../../src/limits/teams/index.ts';

const refuse = (seconds: number) => Object.assign(new Error(`full, retry in ${seconds}`), { seconds });
const expire = (waitedMs: number) => new Error(`expired after ${waitedMs}`);
const opts = (limit = Number.POSITIVE_INFINITY, maxQueued = Number.POSITIVE_INFINITY) => ({ limit, maxQueued, refuse, expire });

describe('FairQueue', () => {
  it('round-robin across teams, FIFO within a team: a flood delays only its own team', async () => {
    const queue = new FairQueue(1);
    const order: string[] = [];
    const first = await queue.acquire('A', opts());
    const waiting: Promise<Lease>[] = [];
    for (const job of ['A1', 'A2', 'A3', 'A4', 'B1', 'B2', 'C1']) {
      waiting.push(
        queue.acquire(job.slice(0, 1), opts()).then((lease) => {
          order.push(job);
          // Each job runs until the next tick, then gives its place back.
          setImmediate(() => lease.release(true));
          return lease;
        }),
      );
    }
    expect(queue.stats('A')).toMatchObject({ running: 1, waiting: 4 });
    first.release(true);
    const leases = await Promise.all(waiting);
    expect(order).toEqual(['A1', 'B1', 'C1', 'A2', 'B2', 'A3', 'A4']);
    for (const lease of leases) expect(lease.waited).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(queue.stats('A').mostRecentSuccess).toBeInstanceOf(Date);
    expect(queue.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('a team at its limit waits while another team starts at once', async () => {
    const queue = new FairQueue(Number.POSITIVE_INFINITY);
    const a1 = await queue.acquire('A', opts(1));
    let a2Started = false;
    const a2 = queue.acquire('A', opts(1)).then((l) => {
      a2Started = true;
      return l;
    });
    const b1 = await queue.acquire('B', opts(1));
    expect(b1.waited).toBe(false);
    expect(a2Started).toBe(false);
    a1.release();
    const lease = await a2;
    expect(lease.waited).toBe(true);
    expect(lease.waitedMs).toBeGreaterThanOrEqual(0);
    lease.release();
    b1.release();
  });

  it('refuses over the team bound, expires a wait past its timeout, and drops a job whose client went away', async () => {
    const queue = new FairQueue(1);
    const held = await queue.acquire('A', opts(1, 1));
    const controller = new AbortController();
    const gone = queue.acquire('A', { ...opts(1, 1), signal: controller.signal });
    await expect(queue.acquire('A', opts(1, 1))).rejects.toThrow(/^full, retry in \d+$/);
    controller.abort(new Error('client gone'));
    await expect(gone).rejects.toThrow('client gone');
    expect(queue.stats('A').waiting).toBe(0);
    await expect(queue.acquire('A', { ...opts(1, 1), timeoutMs: 50 })).rejects.toThrow(/^expired after \d+$/);
    held.release();
    expect(queue.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('bounds the waiting jobs of all teams together when asked (the parse pool’s FOLIO_MAX_QUEUED_PARSES)', async () => {
    const queue = new FairQueue(1, { maxWaiting: 1 });
    const held = await queue.acquire('A', opts());
    const waiting = queue.acquire('B', opts());
    await expect(queue.acquire('C', opts())).rejects.toThrow(/^full, retry in \d+$/);
    held.release();
    (await waiting).release();
    expect(queue.load()).toEqual({ running: 0, waiting: 0 });
  });
});
