/**
 * Token verification cost on the tool server (`npm run bench:oauth [-- --quick]`, issue 7
 * "Benchmarks"): median µs per `tools/list` request on `/v2/mcp-oauth` with an OAuth access token
 * (signature, claims, grant lookup) against `/v2/mcp` with an API key (hash lookup), in the same
 * run, interleaved per iteration so that drift hits both alike. Target: within 2×.
 *
 * The access token comes through the real path: an authorization code from `issueCode`, then
 * POST /oauth/token with its PKCE verifier.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { send } from './http-send.ts';
import os from 'node:os';
import path from 'node:path';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../auth/api-keys.ts';
import { startService } from '../src/cli/serve.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';

const quick = process.argv.includes('--quick');
const ITERATIONS = quick ? 300 : 2000;
const WARMUP = quick ? 50 : 200;

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-oauth-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  const service = await startService(config, {
    logger: createLogger({ level: 'silent' }),
    // tools/list parses nothing: no worker pool needed.
    runner: async () => Promise.reject(new Error('no parse in this benchmark')),
  });
  try {
    const team = await service.store.ensureTeam('bench');
    const apiKey = generateApiKey();
    await service.store.createApiKey({ teamId: team.id, keyHash: hashApiKey(apiKey), prefix: apiKeyDisplayPrefix(apiKey) });

    const verifier = randomBytes(32).toString('base64url');
    const redirectUri = 'http://127.0.0.1:9/callback';
    const code = await service.authorizationCodes.issueCode({
      clientId: 'https://bench.example/client.json',
      userId: 'user_bench',
      teamId: team.id,
      scope: 'mcp',
      resource: '/v2/mcp-oauth',
      redirectUri,
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    });
    const tokenRes = await send(
      agent,
      `${service.url}/oauth/token`,
      'POST',
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'https://bench.example/client.json', redirect_uri: redirectUri, code_verifier: verifier }).toString(),
    );
    if (tokenRes.status !== 200) throw new Error(`token endpoint: ${tokenRes.status} ${tokenRes.text}`);
    const accessToken = String((JSON.parse(tokenRes.text) as { access_token: string }).access_token);

    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
    const ways = {
      'oauth token  /v2/mcp-oauth': { url: `${service.url}/v2/mcp-oauth`, headers: { ...mcpHeaders, authorization: `Bearer ${accessToken}` } },
      'API key      /v2/mcp      ': { url: `${service.url}/v2/mcp`, headers: { ...mcpHeaders, authorization: `Bearer ${apiKey}` } },
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));

    process.stderr.write(`bench:oauth: ${WARMUP} warm-up + ${ITERATIONS} iterations of tools/list, two ways, interleaved\n`);
    for (let i = 0; i < WARMUP + ITERATIONS; i++) {
      for (const [name, way] of Object.entries(ways)) {
        const t0 = process.hrtime.bigint();
        const res = await send(agent, way.url, 'POST', way.headers, body);
        const us = Number(process.hrtime.bigint() - t0) / 1e3;
        if (res.status !== 200) throw new Error(`${name.trim()}: ${res.status} ${res.text.slice(0, 300)}`);
        if (i >= WARMUP) times[name]?.push(us);
      }
    }

    const medians = Object.entries(times).map(([name, list]) => [name, median(list)] as const);
    for (const [name, us] of medians) process.stdout.write(`${name}  median ${us.toFixed(0).padStart(6)} µs per request\n`);
    const [oauthMedian, keyMedian] = medians.map(([, us]) => us);
    if (oauthMedian !== undefined && keyMedian !== undefined) {
      const ratio = oauthMedian / keyMedian;
      process.stdout.write(`ratio oauth / API key: ${ratio.toFixed(2)}× (target: within 2×) ${ratio <= 2 ? 'OK' : 'OVER TARGET'}\n`);
    }
  } finally {
    agent.destroy();
    await service.shutdown();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
