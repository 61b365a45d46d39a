/**
 * The agent on Ollama's native API (POST /api/chat with `tools`; tool calls with object arguments
 * and no ids): the same loop, the tool results sent back as `role: "tool"` messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.ts';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { startSite, type TestSite } from '../web/site.ts';

let ollama: FakeOllama;
let site: TestSite;
let service: TestService;

beforeAll(async () => {
  ollama = await startFakeOllama();
  site = await startSite({ pages: 3 });
  service = await startTestService({ runner: inProcessRunner() }, { OLLAMA_BASE_URL: ollama.url, MODEL_NAME: 'llama3.1', FOLIO_FETCH_ALLOW: site.hostPort });
}, 30_000);

afterAll(async () => {
  await service.stop();
  await ollama.close();
  await site.close();
});

describe('agent on Ollama', () => {
  it('calls folio’s tools through Ollama’s tool calls and answers', async () => {
    ollama.enqueue({ toolCalls: [{ name: 'scrape', arguments: { url: `${site.url}/about.html` } }] }, { content: '{"purpose": "tests"}' });
    const auth = { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' };
    const started = await request(`${service.url}/v2/agent`, { method: 'POST', headers: auth, body: Buffer.from(JSON.stringify({ prompt: 'What is the site for?', urls: [`${site.url}/about.html`] })) });
    const id = (started.json as { id: string }).id;
    let status: Record<string, unknown> = { status: 'processing' };
    for (let i = 0; i < 400 && status.status === 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await request(`${service.url}/v2/agent/${id}`, { headers: auth })).json as Record<string, unknown>;
    }
    expect(status).toMatchObject({ status: 'completed', data: { purpose: 'tests' }, creditsUsed: 1, model: 'llama3.1' });
    const [first, second] = ollama.chats();
    expect(((first?.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(['map', 'scrape']);
    const messages = (second?.body.messages ?? []) as { role: string; content: string; tool_calls?: { function: { arguments: unknown } }[] }[];
    expect(messages.find((m) => m.role === 'assistant')?.tool_calls?.[0]?.function.arguments).toEqual({ url: `${site.url}/about.html` });
    expect(messages.find((m) => m.role === 'tool')?.content).toContain('A site that exists only for tests.');
  });
});
