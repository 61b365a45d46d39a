/**
 * Tool-call overhead (`npm run bench:mcp [-- --quick]`): what the MCP door adds to a parse.
 *
 * One service (real worker pool, temp DATA_DIR, an API key), one file, three ways, interleaved
 * per iteration so that drift hits all three alike:
 *   multipart   POST /v2/parse with the file (what HTTP clients do)
 *   json-ref    POST /v2/parse {uploadRef} after a PUT of the file (the same upload storage the
 *               MCP path reads; the PUT is not timed)
 *   mcp         the `parse` tool called with that kind of uploadRef over Streamable HTTP with the
 *               official SDK client (initialized once; the PUT is not timed)
 * Prints median and p95 per way and the MCP overhead (mcp − json-ref, and mcp − multipart).
 * Target (issue 5): MCP adds under 5 ms.
 */
import fs from 'node:fs';
import http from 'node:http';
import { send } from './http-send.ts';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../auth/api-keys.ts';
import { startService } from '../src/cli/serve.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { corpusPath } from '../test/helpers/corpus.ts';

const quick = process.argv.includes('--quick');
const ITERATIONS = quick ? 30 : 150;
const WARMUP = 10;
const FILE = corpusPath('office', 'docx', 'docling-word_tables.docx');
const BOUNDARY = 'folio-bench-boundary-mcp-overhead';

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-mcp-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', FOLIO_MAX_UPLOAD_REFS: '1000' });
  const service = await startService(config, { logger: createLogger({ level: 'silent' }) });
  const key = generateApiKey();
  const team = await service.store.ensureTeam('bench');
  await service.store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
  const auth = { authorization: `Bearer ${key}` };
  const bytes = fs.readFileSync(FILE);
  const multipartBody = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="tables.docx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);

  /** A ticket and its upload, untimed: what the next json-ref or mcp call parses. */
  const uploaded = async (): Promise<string> => {
    const ticket = await send(agent, `${service.url}/v2/uploads`, 'POST', { ...auth, 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ filename: 'tables.docx' })));
    if (ticket.status !== 200) throw new Error(`ticket: ${ticket.status} ${ticket.text}`);
    const { uploadRef, uploadUrl } = JSON.parse(ticket.text) as { uploadRef: string; uploadUrl: string };
    const put = await send(agent, uploadUrl, 'PUT', { 'content-type': 'application/octet-stream' }, bytes);
    if (put.status !== 200) throw new Error(`upload: ${put.status} ${put.text}`);
    return uploadRef;
  };

  const client = new Client({ name: 'folio-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/v2/mcp`), { requestInit: { headers: auth } }));

  const ways = {
    multipart: async () => {
      const res = await send(agent, `${service.url}/v2/parse`, 'POST', { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, multipartBody);
      if (res.status !== 200) throw new Error(`multipart: ${res.status} ${res.text}`);
    },
    'json-ref': async (ref: string) => {
      const res = await send(agent, `${service.url}/v2/parse`, 'POST', { ...auth, 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ uploadRef: ref })));
      if (res.status !== 200) throw new Error(`json-ref: ${res.status} ${res.text}`);
    },
    mcp: async (ref: string) => {
      const result = await client.callTool({ name: 'parse', arguments: { uploadRef: ref } });
      if (result.isError) throw new Error(`mcp: ${JSON.stringify(result.content)}`);
    },
  };
  const times: Record<keyof typeof ways, number[]> = { multipart: [], 'json-ref': [], mcp: [] };

  process.stderr.write(`bench:mcp: ${WARMUP} warm-up + ${ITERATIONS} iterations of ${path.basename(FILE)} (${bytes.length} bytes), three ways\n`);
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const refA = await uploaded();
    const refB = await uploaded();
    const timed = async (name: keyof typeof ways, run: () => Promise<void>) => {
      const t0 = process.hrtime.bigint();
      await run();
      if (i >= WARMUP) times[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
    };
    await timed('multipart', () => ways.multipart());
    await timed('json-ref', () => ways['json-ref'](refA));
    await timed('mcp', () => ways.mcp(refB));
    if ((i + 1) % 50 === 0) process.stderr.write(`  ${i + 1}/${WARMUP + ITERATIONS}\n`);
  }
  await client.close();
  await service.shutdown();
  agent.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const stats = Object.fromEntries(
    Object.entries(times).map(([name, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return [name, { median: percentile(sorted, 50), p95: percentile(sorted, 95) }];
    }),
  ) as Record<keyof typeof ways, { median: number; p95: number }>;
  const fmt = (ms: number) => `${ms.toFixed(2)} ms`.padStart(10);
  console.log(`\nparse of ${path.basename(FILE)}, ${ITERATIONS} calls per way (sequential, one client)`);
  console.log(`${'way'.padEnd(12)}${'median'.padStart(10)}${'p95'.padStart(10)}`);
  for (const [name, s] of Object.entries(stats)) console.log(`${name.padEnd(12)}${fmt(s.median)}${fmt(s.p95)}`);
  const overRef = stats.mcp.median - stats['json-ref'].median;
  const overMultipart = stats.mcp.median - stats.multipart.median;
  console.log(`\nMCP overhead (median): ${overRef.toFixed(2)} ms vs /v2/parse by uploadRef, ${overMultipart.toFixed(2)} ms vs multipart /v2/parse (target < 5 ms)`);
}

await main();
