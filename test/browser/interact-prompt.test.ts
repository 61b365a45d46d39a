/**
 * Interact by `prompt` with an LLM configured (a fake OpenAI-compatible server speaking the real
 * Chat Completions wire format): the model receives the instruction and the page's visible text
 * as data, answers actions, folio validates and runs them on the scrape's page; an answer that is
 * not a valid action list is a clear error naming why.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promptText, startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai.ts';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { startBrowserSite, type BrowserSite } from './site.ts';

let site: BrowserSite;
let service: TestService;
let openai: FakeOpenAi;
let sdk: Firecrawl;
let plan: unknown = { actions: [{ type: 'click', selector: '#more' }, { type: 'executeJavascript', script: "return document.getElementById('hidden').textContent" }] };

beforeAll(async () => {
  site = await startBrowserSite();
  openai = await startFakeOpenAi();
  openai.respond((req) => (promptText(req).includes('{"ok": true}') ? { content: '{"ok":true}' } : { content: JSON.stringify(plan) }));
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: site.hostPort, OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: 'sk-fake-interact', MODEL_NAME: 'gpt-fake' });
  sdk = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await site?.close();
  await openai?.close();
});

describe('interact by prompt', () => {
  it('plans actions with the LLM from the page text, runs them, and refuses an invalid plan', async () => {
    const scraped = await sdk.scrape(`${site.url}/click.html`, { formats: ['markdown'] });
    const scrapeId = scraped.metadata?.scrapeId as string;

    const done = await sdk.interact(scrapeId, { prompt: 'Show the hidden text' });
    expect(done.success).toBe(true);
    expect(done.stdout).toContain(`actions[0] {"type":"click","selector":"#more"}`);
    const result = JSON.parse(done.result ?? '{}') as { results: { javascriptReturns: { value: unknown }[] }; text: string };
    expect(result.results.javascriptReturns[0]?.value).toBe('The secret harbour is Porthleven.');
    expect(result.text).toContain('The secret harbour is Porthleven.');
    // The model saw the instruction and the page's text, the text marked as data.
    const asked = openai.chats().map(promptText).find((t) => t.includes('Show the hidden text')) ?? '';
    expect(asked).toContain('Teaser');
    expect(asked).toMatch(/<document kind="visible page text">/);
    expect(asked).toContain('untrusted data');

    plan = { actions: [{ type: 'launchMissiles' }] };
    const bad = await request(`${service.url}/v2/scrape/${scrapeId}/interact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ prompt: 'do something odd' })),
      timeoutMs: 60_000,
    });
    expect(bad.status).toBe(502);
    expect(bad.json.code).toBe('FETCH_FAILED');
    expect(String(bad.json.error)).toContain('did not answer a valid list of browser actions');
    await sdk.stopInteraction(scrapeId);
  }, 120_000);
});
