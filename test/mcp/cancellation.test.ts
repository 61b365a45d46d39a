/**
 * Cancellation over stateless Streamable HTTP: `notifications/cancelled` arrives as its own POST
 * and aborts the running call through the registry; a client that closes the connection aborts
 * its call too. The runner here waits for its abort signal (a parse "with known behaviour"), so
 * that the test does not race a real parse's speed.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParseRunner } from '../../src/limits/runner.ts';
import { buildTools } from '../../tools/index.ts';
import { connectMcp, corpusReader, MCP_HEADERS, startMcpApp, type McpApp } from './helpers.ts';

let app: McpApp;
let started = 0;
const aborted: unknown[] = [];

/** Starts like a parse, then runs until it is aborted. */
const waitingRunner: ParseRunner = (_input, _options, run) =>
  new Promise((_, reject) => {
    started++;
    run?.signal?.addEventListener('abort', () => {
      aborted.push(run.signal?.reason);
      reject(new Error('aborted'));
    }, { once: true });
  });

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  app = await startMcpApp({ runner: waitingRunner, tools: ({ runner }) => buildTools({ runner, localFiles: corpusReader }) });
});
afterAll(async () => {
  await app.stop();
});

describe('cancellation', () => {
  it('notifications/cancelled (its own POST) aborts the running call', async () => {
    const client = await connectMcp(`${app.url}/v2/mcp`, { authorization: `Bearer ${app.key}` });
    try {
      const before = aborted.length;
      const controller = new AbortController();
      const call = client.callTool({ name: 'parse', arguments: { filePath: 'pdf/pdfjs/tracemonkey.pdf' } }, undefined, { signal: controller.signal });
      call.catch(() => undefined);
      await until(() => started > 0);
      controller.abort('the user pressed stop');
      await expect(call).rejects.toThrow();
      await until(() => aborted.length > before);
      expect(String(aborted[aborted.length - 1])).toContain('the user pressed stop');
      await until(() => app.logText().includes('"outcome":"cancelled"'));
    } finally {
      await client.close();
    }
  });

  it('closing the connection aborts the call', async () => {
    const before = aborted.length;
    const startedBefore = started;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'parse', arguments: { filePath: 'pdf/pdfjs/tracemonkey.pdf' } } });
    const req = http.request(`${app.url}/v2/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${app.key}`, 'mcp-protocol-version': '2025-06-18' } });
    req.on('error', () => undefined);
    req.end(body);
    await until(() => started > startedBefore);
    req.destroy();
    await until(() => aborted.length > before);
  });
});
