/**
 * The `agent`, `agent_status` and `extract` tools on the keyed tool server (/v2/mcp with an API
 * key) of a started folio with a scripted fake LLM, through the real MCP SDK client: listed only
 * with a key, the agent job started and read back, extract waited for with progress notifications.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai.ts';
import { request, startTestService, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf, textOf } from '../mcp/helpers.ts';
import { startSite, type TestSite } from '../web/site.ts';

let llm: FakeOpenAi;
let site: TestSite;
let service: TestService;
let keyed: Client;
let keyless: Client;

beforeAll(async () => {
  llm = await startFakeOpenAi();
  site = await startSite({ pages: 5 });
  service = await startTestService(
    { runner: inProcessRunner() },
    { OPENAI_BASE_URL: llm.baseUrl, MODEL_NAME: 'fake-tool-model', LLM_STRUCTURED_OUTPUT: 'json_schema', FOLIO_FETCH_ALLOW: site.hostPort },
  );
  keyed = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${service.key}` });
  keyless = await connectMcp(`${service.url}/v2/mcp`);
}, 30_000);

afterAll(async () => {
  await keyed.close();
  await keyless.close();
  await service.stop();
  await llm.close();
  await site.close();
});

describe('agent tools over /v2/mcp', () => {
  it('are listed with a key only', async () => {
    const names = (await keyed.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['agent', 'agent_status', 'extract']));
    const open = (await keyless.listTools()).tools.map((t) => t.name);
    expect(open).not.toContain('agent');
    expect(open).not.toContain('extract');
  });

  it('agent starts a job; agent_status reads its answer', async () => {
    llm.enqueue({ toolCalls: [{ name: 'scrape', arguments: { url: `${site.url}/about.html` } }] }, { content: '{"purpose": "tests"}' });
    const started = await keyed.callTool({ name: 'agent', arguments: { prompt: 'What is the site for?', urls: [`${site.url}/about.html`] } });
    expect(started.isError).toBeFalsy();
    const id = structuredOf(started).id as string;
    expect(textOf(started)).toContain(`agent_status`);
    let status: Record<string, unknown> = {};
    for (let i = 0; i < 200; i++) {
      const res = await keyed.callTool({ name: 'agent_status', arguments: { id } });
      status = structuredOf(res);
      if (status.status !== 'processing') {
        expect(textOf(res)).toContain('"purpose": "tests"');
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toMatchObject({ status: 'completed', data: { purpose: 'tests' }, creditsUsed: 1 });
  });

  it('extract waits for the job and sends progress notifications', async () => {
    llm.respond(() => ({ content: '{"title": "Tidal Energy in Small Harbours"}' }));
    try {
      const progress: unknown[] = [];
      const res = await keyed.callTool(
        { name: 'extract', arguments: { urls: [`${site.url}/article.html`], prompt: 'The title.', showSources: true } },
        undefined,
        { onprogress: (p) => progress.push(p), timeout: 60_000 },
      );
      expect(res.isError).toBeFalsy();
      expect(structuredOf(res)).toMatchObject({ status: 'completed', data: { title: 'Tidal Energy in Small Harbours' }, sources: { title: [`${site.url}/article.html`] } });
      const messages = (progress as { progress: number; message?: string }[]).map((p) => p.message ?? '');
      expect(messages[0]).toMatch(new RegExp(`^scrape ${site.url}/article\\.html`));
      expect(messages.some((m) => m.startsWith(`extracted from ${site.url}/article.html`))).toBe(true);
    } finally {
      llm.respond(() => ({ content: '{}' }));
    }
  });

  it('agent with waitSeconds stays open: one progress notification per step, naming it, then the answer', async () => {
    llm.enqueue({ toolCalls: [{ name: 'scrape', arguments: { url: `${site.url}/about.html` } }] }, { content: '{"purpose": "tests"}' });
    const progress: { progress: number; message?: string }[] = [];
    const res = await keyed.callTool(
      { name: 'agent', arguments: { prompt: 'What is the site for?', urls: [`${site.url}/about.html`], waitSeconds: 60 } },
      undefined,
      { onprogress: (p) => progress.push(p), timeout: 60_000 },
    );
    expect(res.isError).toBeFalsy();
    expect(structuredOf(res)).toMatchObject({ status: 'completed', data: { purpose: 'tests' }, steps: 2, creditsUsed: 1 });
    expect(textOf(res)).toContain('"purpose": "tests"');
    const messages = progress.map((p) => p.message ?? '');
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatch(/^LLM turn 1: 1 tool call\(s\), \d+ tokens \(1 steps, 0 credits so far\)$/);
    expect(messages[1]).toBe(`scrape ${site.url}/about.html (1 steps, 0 credits so far)`);
    expect(messages[2]).toMatch(/^LLM turn 2: the answer, \d+ tokens \(2 steps, 1 credits so far\)$/);
    // MCP: progress increases with each notification.
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
  });

  it('cancelling an agent call that waits cancels its job', async () => {
    llm.enqueue({ content: '{"never": true}', delayMs: 10_000 });
    const controller = new AbortController();
    const call = keyed.callTool({ name: 'agent', arguments: { prompt: 'Slow.', waitSeconds: 60 } }, undefined, { signal: controller.signal, onprogress: () => undefined, timeout: 60_000 });
    let id = '';
    for (let i = 0; i < 200 && !id; i++) {
      const list = await request(`${service.url}/v2/agent`, { headers: { authorization: `Bearer ${service.key}` } });
      const latest = ((list.json as { agents: { id: string; status: string; options: { prompt: string } }[] }).agents).find((a) => a.options.prompt === 'Slow.' && a.status === 'processing');
      if (latest) id = latest.id;
      else await new Promise((r) => setTimeout(r, 25));
    }
    expect(id).not.toBe('');
    controller.abort();
    await expect(call).rejects.toThrow();
    let status = '';
    for (let i = 0; i < 200 && status !== 'cancelled'; i++) {
      status = String(structuredOf(await keyed.callTool({ name: 'agent_status', arguments: { id } })).status);
      if (status !== 'cancelled') await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe('cancelled');
  });

  it('another team cannot read a job', async () => {
    const other = await service.createKey('other-team');
    const client = await connectMcp(`${service.url}/v2/mcp`, { authorization: `Bearer ${other.key}` });
    try {
      const res = await client.callTool({ name: 'agent_status', arguments: { id: '00000000-0000-4000-8000-000000000000' } });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toContain('No agent job with this id');
    } finally {
      await client.close();
    }
  });
});
