/**
 * Credit holds against the store's balance (src/accounts/team-accounts.ts `admit`): a request
 * answered while another admission was reading the balance gives its hold back after its charge,
 * and the read may have been taken before that charge. The admission must still count that
 * hold, or the same credit is spent twice. The interleaving is made exact here by pausing the
 * second admission's balance read (the real store, SQLite or PostgreSQL, behind it).
 */
// test matrix: both — the balance read and the charge are the store's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeamAccounts, NO_SURCHARGE } from '../../src/accounts/index.ts';
import { loadConfig } from '../../src/config.ts';
import { startTestService, type TestService } from '../http/helpers.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

describe('a hold given back during another admission', () => {
  it('still counts for that admission: with 1 credit, a scrape answered while a second one read the balance leaves the second refused', async () => {
    await service.createKey('holds-team');
    const teamId = (await service.store.findTeamByName('holds-team'))?.id ?? '';
    await service.store.updateTeamPlan(teamId, { credits: 1 }, new Date());
    const config = loadConfig({ DATA_DIR: service.dataDir, ...service.storeEnv });

    // The second admission's balance read is taken at once, then held back until the first
    // request has been charged and has given its hold back.
    let pauseNext = false;
    let readTaken: () => void = () => undefined;
    const taken = new Promise<void>((resolve) => (readTaken = resolve));
    let letGo: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (letGo = resolve));
    const store = new Proxy(service.store, {
      get(target, prop, receiver) {
        if (prop !== 'getTeamPlan') return Reflect.get(target, prop, receiver) as unknown;
        return async (id: string) => {
          const plan = await target.getTeamPlan(id);
          if (pauseNext) {
            pauseNext = false;
            readTaken();
            await released;
          }
          return plan;
        };
      },
    });
    const accounts = createTeamAccounts({ store, defaults: config.defaultPlan, prices: config.prices });
    const payer = { teamId, teamName: 'holds-team' };

    const first = new AbortController();
    await accounts.admit(payer, 'scrape', NO_SURCHARGE, undefined, first.signal);
    pauseNext = true;
    const second = accounts.admit(payer, 'scrape', NO_SURCHARGE, undefined, new AbortController().signal);
    second.catch(() => undefined);
    await taken;
    // The first request is answered: charged, then its exchange closes and its hold goes back.
    expect((await accounts.charge(payer, { operation: 'scrape', units: 1 })).charged).toBe(true);
    first.abort();
    letGo();
    await expect(second).rejects.toMatchObject({ code: 'PAYMENT_REQUIRED' });
    expect((await accounts.creditUsage(teamId)).remainingCredits).toBe(0);
  });
});
