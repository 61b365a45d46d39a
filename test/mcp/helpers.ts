/**
 * MCP test helpers: the real SDK client over Streamable HTTP, and reading tool results.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import express from 'express';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from '../../auth/api-keys.ts';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.ts';
import { ServiceError } from '../../src/errors.ts';
import { inProcessRunner, type ParseRunner } from '../../src/limits/runner.ts';
import { createLogger } from '../../src/log.ts';
import { mcpRoutes } from '../../src/mcp/http.ts';
import { resolvePublicUrls } from '../../src/public-urls.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { LocalFileReader, UploadedFile } from '../../src/uploads/types.ts';
import type { AnyToolDefinition } from '../../tools/types.ts';
import { CORPUS_DIR } from '../helpers/corpus.ts';

export async function connectMcp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'folio-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

export function textOf(result: object): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((c) => c.text ?? '').join('');
}

export function structuredOf(result: object): Record<string, unknown> {
  return ((result as { structuredContent?: Record<string, unknown> }).structuredContent ?? {}) as Record<string, unknown>;
}

/** A JSON-RPC initialize body, for raw HTTP requests. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * The MCP routes of src/mcp/http.ts on their own express app, with a real SQLite store in a temp
 * DATA_DIR: for tests that need a tool list of their own (a `localFiles` reader on the corpus).
 */
export interface McpApp {
  url: string;
  /** A valid API key of team 'mcp-team'. */
  key: string;
  logText(): string;
  stop(): Promise<void>;
}

export async function startMcpApp(options: { tools: (deps: { runner: ParseRunner }) => readonly AnyToolDefinition[]; runner?: ParseRunner; env?: Record<string, string> }): Promise<McpApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-mcp-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...options.env });
  const chunks: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk.toString('utf8'));
        cb();
      },
    }),
  });
  const store = openSqliteStore(dataDir);
  const runner = options.runner ?? inProcessRunner();
  const app = express();
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app.use(mcpRoutes({ config, urls: resolvePublicUrls(config, url), keys: store, runner, logger, tools: options.tools({ runner }) }));
  const key = generateApiKey();
  const team = await store.ensureTeam('mcp-team');
  await store.createApiKey({ teamId: team.id, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key) });
  return {
    url,
    key,
    logText: () => chunks.join(''),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads files under the shared corpus only (what the stdio server's reader does for its roots). */
export const corpusReader: LocalFileReader = {
  async read(filePath: string): Promise<UploadedFile> {
    const abs = path.resolve(CORPUS_DIR, filePath);
    if (!abs.startsWith(CORPUS_DIR + path.sep)) throw new ServiceError('FORBIDDEN', `'${filePath}' is outside the corpus.`);
    return { bytes: await fs.promises.readFile(abs), filename: path.basename(abs) };
  },
};
