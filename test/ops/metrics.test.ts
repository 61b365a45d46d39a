/**
 * `/ready` and `/metrics` of a started service (docs/operations.md): readiness names each part,
 * metrics are off by default, need the bearer token when on, and count real requests: a parsed
 * PDF shows in the request counter and the latency histogram with its operation, format and
 * status, its credits in the credits counter; the pool's gauges are there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { postParse, request, startTestService, upload, type TestService } from '../http/helpers.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('metrics off (the default)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('/metrics is not served at all', async () => {
    const res = await request(`${service.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('/ready answers 200 with the store and the warm parse processes, no API key needed', async () => {
    const res = await request(`${service.url}/ready`);
    expect(res.status).toBe(200);
    // With REDIS_URL (the postgres+redis project) Redis is checked too.
    const redis = service.storeEnv.REDIS_URL ? { redis: 'ok' } : {};
    expect(res.json).toEqual({ ready: true, checks: { store: 'ok', parseWorkers: 'ok', ...redis } });
  });
});

describe('metrics on', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({}, { FOLIO_METRICS: 'on', FOLIO_METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('refuses a scrape without the token, or with another one', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer not-the-token-at-all-000' }, { authorization: service.key }];
    for (const headers of attempts) {
      const res = await request(`${service.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toContain('Bearer');
      expect(res.json).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
      expect(res.text).not.toContain(TOKEN);
    }
  });

  it('counts a parsed PDF by operation, format and status, times it, and counts its credits', async () => {
    const parsed = await postParse(service, upload('rotation.pdf', readCorpus('pdf', 'pdfjs', 'rotation.pdf')));
    expect(parsed.status).toBe(200);
    const refused = await postParse(service, upload('notes.txt', 'plain text'));
    expect(refused.status).toBe(400);

    const res = await request(`${service.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(text).toContain('# TYPE folio_http_requests_total counter');
    expect(text).toContain('folio_http_requests_total{format="pdf",operation="parse",status="200"} 1');
    expect(text).toContain('folio_http_requests_total{format="other",operation="parse",status="400"} 1');
    expect(text).toContain('# TYPE folio_http_request_duration_seconds histogram');
    expect(text).toMatch(/folio_http_request_duration_seconds_bucket\{format="pdf",operation="parse",status="200",le="\+Inf"\} 1\n/);
    expect(text).toMatch(/folio_http_request_duration_seconds_count\{format="pdf",operation="parse",status="200"\} 1\n/);
    const sum = /folio_http_request_duration_seconds_sum\{format="pdf",operation="parse",status="200"\} ([\d.e-]+)/.exec(text);
    expect(Number(sum?.[1])).toBeGreaterThan(0);
    // rotation.pdf has 4 pages at 1 credit each (docs/billing.md).
    const pages = (parsed.json.data as { metadata: { numPages: number } }).metadata.numPages;
    expect(text).toContain(`folio_credits_charged_total{operation="parse"} ${pages}`);
    expect(text).toContain('folio_parse_queue_depth 0');
    expect(text).toContain('folio_parse_workers{state="configured"} 2');
    expect(text).toContain('folio_parse_workers{state="ready"} 2');
    expect(text).toContain('folio_parse_worker_restarts_total 0');
    expect(text).toContain('folio_parse_worker_kills_total{reason="timeout"} 0');
    expect(text).toContain('# TYPE folio_parse_worker_kills_total counter');
    expect(text).toContain('# TYPE folio_llm_tokens_total counter');
    // The metrics scrape itself is in flight while it renders; nothing else is.
    expect(text).toContain('folio_http_requests_in_flight 0');
    // Keys never become labels.
    expect(text).not.toContain(service.key);
  });

  it('an API key in a legacy MCP path never becomes a label', async () => {
    await request(`${service.url}/${service.key}/v2/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') });
    const res = await request(`${service.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.text).toMatch(/folio_http_requests_total\{format="none",operation="mcp",status="\d+"\} 1/);
    expect(res.text).not.toContain(service.key);
  });
});

describe('LLM tokens', () => {
  let openai: FakeOpenAi;
  let service: TestService;
  beforeAll(async () => {
    openai = await startFakeOpenAi();
    openai.respond(() => ({ content: 'A short summary.', promptTokens: 120, completionTokens: 9 }));
    service = await startTestService({}, { FOLIO_METRICS: 'on', FOLIO_METRICS_TOKEN: TOKEN, OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: 'sk-metrics-test-0000', MODEL_NAME: 'gpt-fake' });
  });
  afterAll(async () => {
    await service?.stop();
    await openai?.close();
  });

  it('counts the tokens of the LLM calls a parse made in its parse process', async () => {
    const parsed = await postParse(service, upload('blog.html', readCorpus('html', 'markitdown', 'test_blog.html'), { formats: ['summary'] }));
    expect(parsed.status).toBe(200);
    const calls = openai.chats().length;
    expect(calls).toBeGreaterThan(0);
    const res = await request(`${service.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.text).toContain(`folio_llm_tokens_total{direction="input"} ${120 * calls}`);
    expect(res.text).toContain(`folio_llm_tokens_total{direction="output"} ${9 * calls}`);
    expect(res.text).not.toContain('sk-metrics-test-0000');
  });
});

describe('/ready with REDIS_URL', () => {
  let redis: TestRedis;
  let service: TestService;
  beforeAll(async () => {
    redis = await startRedis();
    service = await startTestService({}, { REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await service?.stop();
    await redis?.stop();
  });

  it('pings Redis as a third check', async () => {
    const res = await request(`${service.url}/ready`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ready: true, checks: { store: 'ok', parseWorkers: 'ok', redis: 'ok' } });
  });
});
