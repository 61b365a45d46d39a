/**
 * redactPII over the doors: the real Firecrawl SDK's parse() and scrape() against a started
 * folio (scrape fetches a loopback page), and the MCP parse tool.
 */
// test matrix: once — redaction through the doors; the store only authenticates.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Firecrawl from '@mendable/firecrawl-js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTools } from '../../tools/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { connectMcp, corpusReader, startMcpApp, structuredOf, textOf, type McpApp } from '../mcp/helpers.ts';

const PAGE = '<!doctype html><html><head><title>Support</title></head><body><main><h1>Support</h1><p>Write to help.desk@example.com or call +44 20 7946 0958. Our manager Aiko Tanaka answers on Mondays.</p></main></body></html>';
const MAIL = 'html/defuddle/fixtures/metadata--email-style-header-block.html';

let site: http.Server;
let hostPort: string;
let service: TestService;
let client: Firecrawl;
let app: McpApp;
let mcp: Client;

beforeAll(async () => {
  site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  hostPort = `127.0.0.1:${(site.address() as AddressInfo).port}`;
  service = await startTestService({}, { FOLIO_FETCH_ALLOW: hostPort });
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
  app = await startMcpApp({ tools: ({ runner }) => buildTools({ runner, localFiles: corpusReader }) });
  mcp = await connectMcp(`${app.url}/v2/mcp`);
});
afterAll(async () => {
  await mcp?.close();
  await app?.stop();
  await service?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

describe('redactPII over HTTP and MCP', () => {
  it('Firecrawl SDK parse(): a corpus page with redactPII fast/mask', async () => {
    const doc = await client.parse(
      { data: readCorpus(...MAIL.split('/')), filename: 'mail.html', contentType: 'text/html' },
      { formats: ['markdown'], redactPII: { mode: 'fast', replaceStyle: 'mask' } },
    );
    expect(doc.markdown).not.toContain('hello@example.com');
    expect(doc.markdown).toContain('\\*'.repeat('hello@example.com'.length));
    expect(doc.metadata?.piiRedacted).toEqual(['EMAIL:1']);
  });

  it('Firecrawl SDK parse(): redactPII true answers with the accurate-mode warning', async () => {
    const doc = await client.parse({ data: Buffer.from(PAGE), filename: 'support.html', contentType: 'text/html' }, { formats: ['markdown'], redactPII: true });
    expect(doc.markdown).toContain('\\<EMAIL>');
    expect(doc.markdown).toContain('\\<PHONE>');
    expect(doc.markdown).toContain('\\<PERSON>');
    expect(doc.warning).toContain('OPENAI_BASE_URL');
  });

  it('Firecrawl SDK scrape(): the fetched page is redacted through the same core', async () => {
    const doc = await client.scrape(`http://${hostPort}/support.html`, { formats: ['markdown'], redactPII: { mode: 'fast', entities: ['EMAIL'] } });
    expect(doc.markdown).toContain('Write to \\<EMAIL> or call +44 20 7946 0958.');
    expect(doc.metadata?.piiRedacted).toEqual(['EMAIL:1']);
  });

  it('the MCP parse tool passes redactPII to the core', async () => {
    const result = await mcp.callTool({ name: 'parse', arguments: { filePath: MAIL, redactPII: { mode: 'fast' } } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('\\<EMAIL>');
    expect(textOf(result)).not.toContain('hello@example.com');
    expect(JSON.stringify(structuredOf(result))).not.toContain('hello@example.com');
  });
});
