/**
 * Credits through the started service and the Firecrawl SDK (docs/billing.md): the team usage
 * endpoints' shapes (unlimited and finite), a charge per successful parse (PDF by its pages), no
 * charge for a failed request, an idempotent retry charged once, 402 PAYMENT_REQUIRED before any
 * work (the parse runner never called, the upload not read), parallel requests holding what
 * they may cost (never spending the same credits), history split by key.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inProcessRunner, type ParseRunner } from '../../src/limits/runner.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { postParse, request, upload, type RawResponse, startTestService, type TestService } from '../http/helpers.ts';

const HTML = readCorpus('html', 'markitdown', 'test_blog.html');
const PDF = readCorpus('pdf', 'pdfjs', 'basicapi.pdf');

let service: TestService;
let client: Firecrawl;
let runs = 0;

beforeAll(async () => {
  const inner = inProcessRunner();
  const counting: ParseRunner = (input, options, run) => {
    runs += 1;
    return inner(input, options, run);
  };
  service = await startTestService({ runner: counting });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service.stop();
});
beforeEach(() => {
  runs = 0;
});

async function setCredits(teamId: string, credits: number | null) {
  await service.store.updateTeamPlan(teamId, { credits }, new Date());
}

async function teamWithKey(name: string): Promise<{ key: string; keyId: string; teamId: string; client: Firecrawl }> {
  const { key, id } = await service.createKey(name);
  const teamId = (await service.store.findTeamByName(name))?.id ?? '';
  return { key, keyId: id, teamId, client: new Firecrawl({ apiKey: key, apiUrl: service.url }) };
}

function parseHtml(key: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return postParse({ url: service.url, key }, upload('blog.html', HTML), { headers });
}

describe('the team usage endpoints through the SDK', () => {
  it('report unlimited credits (the default) as 99,999,999 and unlimited: true', async () => {
    const usage = await client.getCreditUsage();
    expect(usage).toEqual({ remainingCredits: 99_999_999, planCredits: 99_999_999, billingPeriodStart: null, billingPeriodEnd: null });
    const raw = await request(`${service.url}/v2/team/credit-usage`, { headers: { authorization: `Bearer ${service.key}` } });
    expect(raw.json).toEqual({ success: true, data: { remainingCredits: 99_999_999, planCredits: 99_999_999, billingPeriodStart: null, billingPeriodEnd: null, unlimited: true } });
  });

  it('report a finite plan: its allowance, what is left, the period start', async () => {
    const t = await teamWithKey('finite-team');
    await setCredits(t.teamId, 50);
    const before = await t.client.getCreditUsage();
    expect(before.remainingCredits).toBe(50);
    expect(before.planCredits).toBe(50);
    expect(Date.parse(String(before.billingPeriodStart))).toBeGreaterThan(Date.now() - 60_000);
    expect(before.billingPeriodEnd).toBeNull();

    const doc = await t.client.parse({ data: HTML, filename: 'blog.html', contentType: 'text/html' });
    expect(doc.markdown).toContain('Large language models');
    expect((await t.client.getCreditUsage()).remainingCredits).toBe(49);

    // A PDF costs a credit per page processed: basicapi.pdf has 3.
    const pdf = await t.client.parse({ data: PDF, filename: 'basicapi.pdf', contentType: 'application/pdf' });
    expect(pdf.metadata?.numPages).toBe(3);
    expect((await t.client.getCreditUsage()).remainingCredits).toBe(46);
  });

  it('token usage: nothing used, unlimited, in the SDK shape', async () => {
    const usage = await client.getTokenUsage();
    expect(usage).toEqual({ remainingTokens: 99_999_999, planTokens: 99_999_999, billingPeriodStart: null, billingPeriodEnd: null });
    const history = await client.getTokenUsageHistorical();
    expect(history).toEqual({ success: true, periods: [] });
  });

  it('credit history by month, and by key with byApiKey', async () => {
    const t = await teamWithKey('history-team');
    const second = await service.createKey('history-team');
    expect((await parseHtml(t.key)).status).toBe(200);
    expect((await parseHtml(t.key)).status).toBe(200);
    expect((await parseHtml(second.key)).status).toBe(200);
    const month = new Date().toISOString().slice(0, 7);
    const whole = await t.client.getCreditUsageHistorical();
    expect(whole.success).toBe(true);
    expect(whole.periods).toEqual([{ startDate: `${month}-01T00:00:00.000Z`, endDate: expect.any(String), creditsUsed: 3 }]);
    const split = await t.client.getCreditUsageHistorical(true);
    expect(split.periods).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ apiKey: t.keyId, creditsUsed: 2 }),
        expect.objectContaining({ apiKey: second.id, creditsUsed: 1 }),
      ]),
    );
    expect(split.periods).toHaveLength(2);
    // Never the key itself.
    expect(JSON.stringify(split)).not.toContain(t.key);
  });
});

describe('charging', () => {
  it('a failed request is not charged', async () => {
    const t = await teamWithKey('failing-team');
    await setCredits(t.teamId, 10);
    const refused = await postParse({ url: service.url, key: t.key }, upload('notes.txt', 'just words'));
    expect(refused.status).toBe(400);
    const broken = await postParse({ url: service.url, key: t.key }, upload('broken.pdf', PDF.subarray(0, 200)));
    expect(broken.status).toBe(400);
    expect((await t.client.getCreditUsage()).remainingCredits).toBe(10);
    expect((await t.client.getCreditUsageHistorical()).periods).toEqual([]);
  });

  it('a retried request with the same x-idempotency-key is charged once', async () => {
    const t = await teamWithKey('retry-team');
    await setCredits(t.teamId, 10);
    const first = await parseHtml(t.key, { 'x-idempotency-key': 'retry-1' });
    const again = await parseHtml(t.key, { 'x-idempotency-key': 'retry-1' });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.json.data).toEqual(first.json.data);
    expect((await t.client.getCreditUsage()).remainingCredits).toBe(9);
    const other = await parseHtml(t.key, { 'x-idempotency-key': 'retry-2' });
    expect(other.status).toBe(200);
    expect((await t.client.getCreditUsage()).remainingCredits).toBe(8);
  });

  it('a retry of a charged request passes even once the credits are gone', async () => {
    const t = await teamWithKey('last-credit-team');
    await setCredits(t.teamId, 1);
    expect((await parseHtml(t.key, { 'x-idempotency-key': 'only-once' })).status).toBe(200);
    expect((await t.client.getCreditUsage()).remainingCredits).toBe(0);
    expect((await parseHtml(t.key, { 'x-idempotency-key': 'only-once' })).status).toBe(200);
    expect((await parseHtml(t.key)).status).toBe(402);
  });

  it('surcharges: redactPII adds 4 per page', async () => {
    const t = await teamWithKey('pii-team');
    await setCredits(t.teamId, 20);
    const res = await postParse({ url: service.url, key: t.key }, upload('blog.html', HTML, { redactPII: true }));
    expect(res.status).toBe(200);
    expect((await t.client.getCreditUsage()).remainingCredits).toBe(15);
  });
});

describe('402 PAYMENT_REQUIRED before any work', () => {
  it('a team without credits: 402 naming the balance and the price, the parse never runs', async () => {
    const t = await teamWithKey('broke-team');
    await setCredits(t.teamId, 0);
    const res = await parseHtml(t.key);
    expect(res.status).toBe(402);
    expect(res.json).toEqual({ success: false, code: 'PAYMENT_REQUIRED', error: expect.stringContaining("Team 'broke-team' has 0 credits left and this parse costs at least 1") });
    expect(String(res.json.error)).toContain('folio teams set broke-team --add-credits');
    expect(runs).toBe(0);
    expect(await t.client.getCreditUsageHistorical()).toEqual({ success: true, periods: [] });
  });

  it('parallel requests cannot spend the same credits: with 3 left, 8 parses at once → 3 answered, 5 refused, the balance 0 not negative', async () => {
    const t = await teamWithKey('parallel-team');
    await setCredits(t.teamId, 3);
    const answers = await Promise.all(Array.from({ length: 8 }, () => parseHtml(t.key)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 402, 402, 402, 402, 402]);
    const refused = answers.find((r) => r.status === 402);
    expect(String(refused?.json.error)).toMatch(/held by its requests still running|has 0 credits left/);
    expect((await t.client.getCreditUsage()).remainingCredits).toBe(0);
    expect((await service.store.getTeamPlan(t.teamId))?.creditsUsed).toBe(3);
    // The holds went with the answers: once credits are added, the next parse is answered.
    await setCredits(t.teamId, 1);
    expect((await parseHtml(t.key)).status).toBe(200);
  });

  it('the SDK surfaces it as an SdkError with status 402', async () => {
    const t = await teamWithKey('broke-sdk-team');
    await setCredits(t.teamId, 0);
    const failure = await t.client.parse({ data: HTML, filename: 'blog.html', contentType: 'text/html' }).then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(402);
    expect((failure as SdkError).code).toBe('PAYMENT_REQUIRED');
    expect(runs).toBe(0);
  });

  it('the options surcharges count: 4 credits cannot pay a redactPII parse (5), the parse never runs', async () => {
    const t = await teamWithKey('short-team');
    await setCredits(t.teamId, 4);
    const res = await postParse({ url: service.url, key: t.key }, upload('blog.html', HTML, { redactPII: true }));
    expect(res.status).toBe(402);
    expect(String(res.json.error)).toContain('has 4 credits left and this parse costs at least 5');
    expect(runs).toBe(0);
  });

  it('before the upload is read: a 402 answers while the body is still being sent', async () => {
    const t = await teamWithKey('early-team');
    await setCredits(t.teamId, 0);
    // Headers promise 30 MB; only the start is sent. The answer comes without the rest.
    const answer = await new Promise<number>((resolve, reject) => {
      import('node:http').then(({ default: http }) => {
        const req = http.request(`${service.url}/v2/parse`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.key}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(30 * 1024 * 1024) },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', (err) => reject(err));
        req.write(Buffer.alloc(64 * 1024, 0x61));
      }, reject);
    });
    expect(answer).toBe(402);
    expect(runs).toBe(0);
  });
});
