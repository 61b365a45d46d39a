/**
 * createMcpServer over the SDK's InMemoryTransport with a real SDK Client: the caller-dependent
 * tool surface, error mapping, progress and cancellation — the logic of src/mcp/server.ts itself.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ServiceError } from '../../src/errors.ts';
import { createLogger } from '../../src/log.ts';
import { RunningCalls } from '../../src/mcp/running-calls.ts';
import { createMcpServer, type McpServerOptions } from '../../src/mcp/server.ts';
import { defineTool, type AnyToolDefinition, type Caller } from '../../tools/types.ts';

const keyless: Caller = { kind: 'keyless', owner: 'keyless:abc' };
const keyed: Caller = { kind: 'api-key', teamId: 't1', teamName: 'team', owner: 'team:t1' };

function captureLogger() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      cb();
    },
  });
  return { logger: createLogger({ level: 'info', destination }), text: () => chunks.join('') };
}

const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Echoes its input.',
  inputSchema: z.object({ text: z.string().min(1), times: z.number().int().min(1).default(1) }),
  keyless: true,
  async run(input) {
    return { text: input.text.repeat(input.times), structured: { echoed: input.text, times: input.times } };
  },
});

const secret = defineTool({
  name: 'crawl',
  title: 'Crawl',
  description: 'Needs a key.',
  inputSchema: z.object({ url: z.string() }),
  keyless: false,
  async run(input) {
    return { text: `crawled ${input.url}`, structured: {} };
  },
});

const limited = defineTool({
  name: 'limited',
  title: 'Limited',
  description: 'Always over its limit.',
  inputSchema: z.object({}),
  keyless: true,
  async run() {
    throw new ServiceError('RATE_LIMITED', 'Too many calls; retry in 42 seconds.', { retryAfterSeconds: 41.2 });
  },
});

const broken = defineTool({
  name: 'broken',
  title: 'Broken',
  description: 'Fails unexpectedly.',
  inputSchema: z.object({}),
  keyless: true,
  async run() {
    throw new Error('internal detail /var/secret/path');
  },
});

const slow = defineTool({
  name: 'slow',
  title: 'Slow',
  description: 'Reports progress, then waits for its signal.',
  inputSchema: z.object({ steps: z.number().int() }),
  keyless: true,
  async run(input, ctx) {
    for (let i = 1; i <= input.steps; i++) ctx.progress({ progress: i, total: input.steps, message: `step ${i}` });
    await new Promise<void>((resolve, reject) => {
      if (input.steps > 0) {
        resolve();
        return;
      }
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true });
    });
    return { text: 'done', structured: { steps: input.steps } };
  },
});

const TOOLS: AnyToolDefinition[] = [echo, secret, limited, broken, slow];
const clients: Client[] = [];

async function connect(caller: Caller, extra: Partial<McpServerOptions> = {}) {
  const log = captureLogger();
  const server = createMcpServer({ tools: TOOLS, caller, logger: log.logger, mcpUrl: 'https://mcp.example.test', ...extra });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
  clients.push(client);
  return { client, log };
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function textOf(result: object): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((c) => c.text ?? '').join('');
}

describe('createMcpServer', () => {
  it('lists only keyless tools to a keyless caller, every tool to a keyed one', async () => {
    const anon = await connect(keyless);
    expect((await anon.client.listTools()).tools.map((t) => t.name)).toEqual(TOOLS.filter((t) => t.keyless).map((t) => t.name));
    const team = await connect(keyed);
    const listed = (await team.client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    const echoTool = listed.find((t) => t.name === 'echo');
    expect(echoTool?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' }, times: { default: 1 } }, required: ['text'] });
    expect(echoTool?.title).toBe('Echo');
  });

  it('a keyless call of a keyed tool is a tool error that says how to send a key', async () => {
    const { client } = await connect(keyless);
    const result = await client.callTool({ name: 'crawl', arguments: { url: 'https://example.com' } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('needs an API key');
    expect(text).toContain('Authorization: Bearer <API_KEY>');
    expect(text).toContain('https://mcp.example.test/v2/mcp,');
    expect(text).toContain('https://mcp.example.test/v2/mcp-oauth');
    expect(text).not.toMatch(/not found/i);
    expect(result.structuredContent).toMatchObject({ code: 'UNAUTHORIZED' });
    // The same call with a key runs.
    const team = await connect(keyed);
    const ok = await team.client.callTool({ name: 'crawl', arguments: { url: 'https://example.com' } });
    expect(ok.isError).toBeFalsy();
    expect(textOf(ok)).toBe('crawled https://example.com');
  });

  it('an unknown tool is a protocol error naming the tools there are', async () => {
    const { client } = await connect(keyless);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool 'nope'.*echo/);
  });

  it('answers text and structuredContent; bad arguments are a tool error naming the field', async () => {
    const { client } = await connect(keyed);
    const ok = await client.callTool({ name: 'echo', arguments: { text: 'ab', times: 2 } });
    expect(textOf(ok)).toBe('abab');
    expect(ok.structuredContent).toEqual({ echoed: 'ab', times: 2 });
    const bad = await client.callTool({ name: 'echo', arguments: { text: '', times: 0.5 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Invalid arguments for echo: `text`: .*; `times`: /);
    expect(bad.structuredContent).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('a ServiceError keeps its message and retry_after_seconds; an unexpected error says nothing internal', async () => {
    const { client, log } = await connect(keyless);
    const limitedResult = await client.callTool({ name: 'limited', arguments: {} });
    expect(limitedResult.isError).toBe(true);
    expect(textOf(limitedResult)).toBe('Too many calls; retry in 42 seconds.');
    expect(limitedResult.structuredContent).toEqual({ code: 'RATE_LIMITED', error: 'Too many calls; retry in 42 seconds.', retry_after_seconds: 42 });
    const brokenResult = await client.callTool({ name: 'broken', arguments: {} });
    expect(brokenResult.isError).toBe(true);
    expect(textOf(brokenResult)).not.toContain('/var/secret');
    expect(brokenResult.structuredContent).toMatchObject({ code: 'UNKNOWN_ERROR' });
    expect(log.text()).toContain('tool call failed unexpectedly');
  });

  it('admit() refuses a call before it runs', async () => {
    let admitted = 0;
    const { client } = await connect(keyless, {
      admit: async (tool) => {
        admitted++;
        if (tool.name === 'echo') throw new ServiceError('RATE_LIMITED', 'Keyless limit reached.', { retryAfterSeconds: 30 });
      },
    });
    const result = await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    expect(result.structuredContent).toEqual({ code: 'RATE_LIMITED', error: 'Keyless limit reached.', retry_after_seconds: 30 });
    // Invalid arguments and keyed-only tools never reach admit().
    await client.callTool({ name: 'echo', arguments: {} });
    await client.callTool({ name: 'crawl', arguments: { url: 'x' } });
    expect(admitted).toBe(1);
  });

  it('sends progress notifications when the client asked for them, and none otherwise', async () => {
    const { client } = await connect(keyed);
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'slow', arguments: { steps: 3 } }, undefined, { onprogress: (p) => seen.push(p) });
    expect(textOf(result)).toBe('done');
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('the running-calls registry aborts a call by owner and request id', async () => {
    const running = new RunningCalls();
    const { client } = await connect(keyed, { running });
    const call = client.callTool({ name: 'slow', arguments: { steps: 0 } }, undefined, { timeout: 5000 });
    call.catch(() => undefined);
    const until = Date.now() + 2000;
    while (running.size === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    expect(running.size).toBe(1);
    // Another owner cannot cancel it; its owner can (the client's first request id after initialize is 1).
    expect(running.cancel('team:other', 1)).toBe(false);
    expect(running.cancel('team:t1', 1, 'user pressed stop')).toBe(true);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('user pressed stop');
    expect(running.size).toBe(0);
  });
});
