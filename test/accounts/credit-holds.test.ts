/**
 * Credit holds against the store's balance (src/accounts/team-accounts.ts `admit`): a request
 * answered while another admission was reading the balance gives its hold back after its charge,
 * and the read may have been taken before that charge. The admission must still count that
 * hold, or the same credit is spent twice. The interleaving is made exact here by pausing the
 * second admission's balance read (the real store, SQLite or PostgreSQL, behind it).
 */
// test matrix: both — the balance read and the charge are the store's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeamAccounts, NO_SURCHARGE, REPRICED, type TeamAccounts } from '../../src/accounts/index.ts';
import { loadConfig } from '../../src/config.ts';
import { startTestService, type TestService } from '../http/helpers.ts';

let service: TestService;

/**
 * Team accounts on the service's store whose next admission (`admitPaused`) has its balance read
 * taken at once and then held back until `letGo()`; `taken` resolves once it was read.
 */
function pausedAccounts(config: ReturnType<typeof loadConfig>) {
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
  const accounts: TeamAccounts = createTeamAccounts({ store, defaults: config.defaultPlan, prices: config.prices });
  return {
    accounts,
    taken,
    letGo: () => letGo(),
    admitPaused(payer: { teamId: string; teamName: string }): Promise<void> {
      pauseNext = true;
      const admission = accounts.admit(payer, 'scrape', NO_SURCHARGE, undefined, new AbortController().signal);
      admission.catch(() => undefined);
      return admission;
    },
  };
}

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

    const paused = pausedAccounts(config);
    const { accounts } = paused;
    const payer = { teamId, teamName: 'holds-team' };

    const first = new AbortController();
    await accounts.admit(payer, 'scrape', NO_SURCHARGE, undefined, first.signal);
    const second = paused.admitPaused(payer);
    await paused.taken;
    // The first request is answered: charged, then its exchange closes and its hold goes back.
    expect((await accounts.charge(payer, { operation: 'scrape', units: 1 })).charged).toBe(true);
    first.abort();
    paused.letGo();
    await expect(second).rejects.toMatchObject({ code: 'PAYMENT_REQUIRED' });
    expect((await accounts.creditUsage(teamId)).remainingCredits).toBe(0);
  });

  it("a hold re-priced is not one given back: with 2 credits, a parse re-held at its options' price while another admission read the balance leaves room for that one", async () => {
    await service.createKey('reprice-team');
    const teamId = (await service.store.findTeamByName('reprice-team'))?.id ?? '';
    await service.store.updateTeamPlan(teamId, { credits: 2 }, new Date());
    const config = loadConfig({ DATA_DIR: service.dataDir, ...service.storeEnv });
    const paused = pausedAccounts(config);
    const { accounts } = paused;
    const payer = { teamId, teamName: 'reprice-team' };

    // The second admission reads the balance (2) and is held back …
    const second = paused.admitPaused(payer);
    await paused.taken;
    // … while the first is admitted, then re-priced once its options are read (src/http/billing.ts
    // checkParseOptions): its hold taken back and held again, no charge between.
    const first = new AbortController();
    await accounts.admit(payer, 'scrape', NO_SURCHARGE, undefined, first.signal);
    first.abort(REPRICED);
    await accounts.admit(payer, 'scrape', NO_SURCHARGE, undefined, new AbortController().signal);
    paused.letGo();
    // One credit held by the first, one left: the second is admitted (counted twice, it was refused).
    await expect(second).resolves.toBeUndefined();
  });
});
