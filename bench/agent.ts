/**
 * Agent benchmark (`npm run bench:agent [-- --runs N --pages P]`).
 *
 * A fixed scripted task over a local site: a fake OpenAI-compatible server (in this process,
 * answering at once with scripted `tool_calls`) drives POST /v2/agent through map, P scrapes and
 * an answer. Prints per run: steps, credits, wall time (the job's created→finished), the time
 * inside the tools (from the trace), and the loop's own overhead per step (wall − tools, over the
 * steps: the LLM round trip to the fake, the store writes, the trace); beside it, the same map and
 * scrapes called directly over HTTP (the raw operation costs).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../auth/api-keys.ts';
import { startService } from '../src/cli/serve.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';

const argOf = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i !== -1 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = argOf('--runs', 5);
const PAGES = argOf('--pages', 5);

function pageHtml(n: number): string {
  const paragraphs = Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i + 1} of page ${n}: ${'tidal energy and small harbours '.repeat(12)}</p>`);
  return `<!DOCTYPE html><html lang="en"><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1>${paragraphs.join('')}<a href="/p/${n + 1}.html">next</a></main></body></html>`;
}

async function listen(handler: http.RequestListener): Promise<{ url: string; hostPort: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The scripted model: the number of assistant turns so far decides the next call. */
function fakeLlm(siteUrl: string): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { role: string }[] };
      const turn = body.messages.filter((m) => m.role === 'assistant').length;
      const call = (name: string, args: unknown) => ({ role: 'assistant', content: null, tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] });
      const message =
        turn === 0 ? call('map', { url: siteUrl }) : turn <= PAGES ? call('scrape', { url: `${siteUrl}/p/${turn}.html` }) : { role: 'assistant', content: `{"pages": ${PAGES}}` };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }], usage: { prompt_tokens: 100, completion_tokens: 20 } }));
    });
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const site = await listen((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const m = /^\/p\/(\d+)\.html$/.exec(p);
    const body = p === '/' ? pageHtml(0) : m ? pageHtml(Number(m[1])) : '';
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' });
    res.end(body || 'not found');
  });
  const llm = await listen(fakeLlm(site.url));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-agent-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    FOLIO_FETCH_ALLOW: site.hostPort,
    OPENAI_BASE_URL: `${llm.url}/v1`,
    MODEL_NAME: 'bench-model',
    LLM_STRUCTURED_OUTPUT: 'json_schema',
  });
  const service = await startService(config, { logger: createLogger({ level: 'silent' }) });
  try {
    const key = generateApiKey();
    const team = await service.store.ensureTeam('bench');
    await service.store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const rows: { steps: number; credits: number; wall: number; tools: number; overhead: number; raw: number }[] = [];
    for (let r = 0; r < RUNS; r++) {
      const res = await fetch(`${service.url}/v2/agent`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'Count the pages.', urls: [site.url] }) });
      const { id } = (await res.json()) as { id: string };
      let job = await service.store.getAgentJob(id);
      while (job?.status === 'processing') {
        await new Promise((resolve) => setTimeout(resolve, 5));
        job = await service.store.getAgentJob(id);
      }
      if (!job || job.status !== 'completed') throw new Error(`agent job ended ${job?.status}: ${job?.error}`);
      const events = (await service.store.agentEvents(id)).map((e) => JSON.parse(e) as { type: string; durationMs?: number });
      const tools = events.filter((e) => e.type === 'tool_call.finished').reduce((n, e) => n + (e.durationMs ?? 0), 0);
      const wall = Date.parse(job.finishedAt ?? job.updatedAt) - Date.parse(job.createdAt);
      // The same operations, called directly.
      const t0 = performance.now();
      await fetch(`${service.url}/v2/map`, { method: 'POST', headers, body: JSON.stringify({ url: site.url }) }).then((x) => x.text());
      for (let p = 1; p <= PAGES; p++) await fetch(`${service.url}/v2/scrape`, { method: 'POST', headers, body: JSON.stringify({ url: `${site.url}/p/${p}.html` }) }).then((x) => x.text());
      const raw = performance.now() - t0;
      rows.push({ steps: job.steps, credits: job.creditsUsed, wall, tools, overhead: (wall - tools) / job.steps, raw });
    }
    console.log(`agent: map + ${PAGES} scrapes + answer over a local site, scripted fake LLM (answers at once), ${RUNS} runs, ${os.availableParallelism()} CPUs`);
    console.log('  run  steps  credits  wall ms  in tools ms  loop overhead ms/step  raw ops ms (direct HTTP)');
    rows.forEach((x, i) =>
      console.log(`  ${String(i + 1).padStart(3)}  ${String(x.steps).padStart(5)}  ${String(x.credits).padStart(7)}  ${String(x.wall).padStart(7)}  ${String(x.tools).padStart(11)}  ${x.overhead.toFixed(1).padStart(21)}  ${x.raw.toFixed(0).padStart(10)}`),
    );
    console.log(`  median: wall ${median(rows.map((x) => x.wall))} ms, in tools ${median(rows.map((x) => x.tools))} ms, loop overhead ${median(rows.map((x) => x.overhead)).toFixed(1)} ms/step, raw ops ${median(rows.map((x) => x.raw)).toFixed(0)} ms`);
  } finally {
    await service.shutdown();
    await llm.close();
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
