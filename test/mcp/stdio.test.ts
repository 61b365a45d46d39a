/**
 * `folio mcp` as a client runs it: a child process spoken to by the MCP SDK client over stdio.
 * Every tool listed; corpus files parsed by path; reads outside the roots, escapes by '..' and by
 * symlink, directories, FIFOs and files over 50 MB refused as tool errors that say what to do;
 * client roots honoured and refreshed; stdout carries protocol messages only (while libraries
 * print); the server stops by itself when stdin closes.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.ts';
import { loadConfig } from '../../src/config.ts';
import { MAX_LOCAL_FILE_BYTES } from '../../src/mcp/local-files.ts';
import { CORPUS_DIR, corpusPath, readCorpus } from '../helpers/corpus.ts';
import { callParse, connectStdio, MCP_COMMAND, RecordingStdioTransport, REPO_ROOT, textOf, type SpawnedServer } from './stdio-helpers.ts';

let base: string;
let root: string;
let outside: string;
let env: Record<string, string>;
let site: http.Server;
let siteUrl: string;

const PAGES: Record<string, string> = {
  '/': '<html><head><title>Home</title></head><body><main><h1>Local home</h1><p>See <a href="/second.html">the second page</a>.</p></main></body></html>',
  '/second.html': '<html><head><title>Second</title></head><body><main><h1>Second page</h1><p>Reached by crawling.</p></main></body></html>',
};

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const page = PAGES[req.url ?? ''];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', () => resolve()));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-stdio-')));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  fs.copyFileSync(corpusPath('html', 'markitdown', 'test_blog.html'), path.join(root, 'blog.html'));
  fs.copyFileSync(corpusPath('html', 'markitdown', 'test_blog.html'), path.join(root, 'sub', 'blog-in-sub.html'));
  fs.copyFileSync(corpusPath('html', 'markitdown', 'test_blog.html'), path.join(outside, 'secret.html'));
  fs.symlinkSync(path.join(outside, 'secret.html'), path.join(root, 'link-out.html'));
  execFileSync('mkfifo', [path.join(root, 'pipe.pdf')]);
  const big = fs.openSync(path.join(root, 'big.pdf'), 'w');
  fs.ftruncateSync(big, MAX_LOCAL_FILE_BYTES + 1);
  fs.closeSync(big);
  // One flipped byte inside a BIFF record makes SheetJS print "Missing Info for XLS Record …".
  const damaged = Buffer.from(readCorpus('office', 'xls', 'tika-testEXCEL.xls'));
  damaged[9484] = (damaged[9484] ?? 0) ^ 0xff;
  fs.writeFileSync(path.join(root, 'damaged.xls'), damaged);
  // Loopback is refused by the SSRF rules unless allowed: the local test site is.
  env = { FOLIO_ALLOWED_DIRS: [root, CORPUS_DIR].join(path.delimiter), LOG_LEVEL: 'info', FOLIO_FETCH_ALLOW: '127.0.0.1' };
});

afterAll(async () => {
  fs.rmSync(base, { recursive: true, force: true });
  site.closeAllConnections();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

describe('folio mcp (no client roots: FOLIO_ALLOWED_DIRS)', () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await connectStdio(env);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists every tool, with parse taking filePath', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['parse', 'scrape', 'map', 'crawl', 'crawl_status']));
    const parse = tools.find((t) => t.name === 'parse');
    expect(Object.keys(parse?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['filePath', 'formats', 'parsers', 'redactPII', 'timeout']));
  });

  it('parses a corpus .docx by absolute path', async () => {
    const result = await callParse(server.client, { filePath: corpusPath('office', 'docx', 'kreuzberg-extraction_test.docx') });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toContain('# Comprehensive Extraction Test Document');
    expect(text).toMatch(/\|\s*Banana\s*\|\s*\$0\.50\s*\|\s*20\s*\|/);
    expect(result.structuredContent).toMatchObject({ metadata: { sourceURL: 'file:///kreuzberg-extraction_test.docx' } });
  });

  it('parses a file by a path relative to the first root', async () => {
    const result = await callParse(server.client, { filePath: 'sub/blog-in-sub.html', formats: ['markdown', 'links'] });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('GPT-4 is currently the state of the art LLM in the world');
    expect(result.structuredContent).toMatchObject({ links: expect.arrayContaining(['https://arxiv.org/abs/2303.04673']) });
  });

  it.each([
    ['/etc/passwd', 'FORBIDDEN', "'/etc/passwd' is outside the directories this folio server may read"],
    ['../outside/secret.html', 'FORBIDDEN', "'../outside/secret.html' is outside the directories"],
    ['sub/../../outside/secret.html', 'FORBIDDEN', 'is outside the directories'],
    ['link-out.html', 'FORBIDDEN', "'link-out.html' is outside the directories"],
    ['sub', 'BAD_REQUEST', "'sub' is a directory, not a regular file"],
    ['pipe.pdf', 'BAD_REQUEST', "'pipe.pdf' is a named pipe (FIFO), not a regular file"],
    ['big.pdf', 'FILE_TOO_LARGE', `'big.pdf' is too large: ${MAX_LOCAL_FILE_BYTES + 1} bytes`],
    ['missing.pdf', 'NOT_FOUND', "'missing.pdf' does not exist"],
  ])('refuses %s as a tool error (%s)', async (filePath, code, message) => {
    const result = await callParse(server.client, { filePath });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code });
    expect(textOf(result)).toContain(message);
    if (code === 'FORBIDDEN') {
      expect(textOf(result)).toContain(`(${root}, ${CORPUS_DIR})`);
      expect(textOf(result)).toContain('FOLIO_ALLOWED_DIRS');
    }
  });

  it('scrapes a URL and crawls a site with the same tools as the HTTP server', async () => {
    const scraped = (await server.client.callTool({ name: 'scrape', arguments: { url: `${siteUrl}/second.html` } })) as CallToolResult;
    expect(scraped.isError).toBeFalsy();
    expect(textOf(scraped)).toContain('# Second page');

    const started = (await server.client.callTool({ name: 'crawl', arguments: { url: `${siteUrl}/`, limit: 5 } })) as CallToolResult;
    expect(started.isError).toBeFalsy();
    const id = (started.structuredContent as { id: string }).id;
    let status = '';
    for (let i = 0; i < 100 && !status.startsWith('Status: completed'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = textOf((await server.client.callTool({ name: 'crawl_status', arguments: { id } })) as CallToolResult);
    }
    expect(status).toContain('Status: completed. Pages scraped: 2 of 2.');
    expect(status).toContain('# Local home');
    expect(status).toContain('Reached by crawling.');
  });

  it('logs to stderr as JSON lines, and logs no file contents', () => {
    const lines = server.stderr().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(server.stderr()).toContain('"msg":"folio MCP server on stdio"');
    expect(server.stderr()).not.toContain('GPT-4 is currently');
  });
});

describe('folio mcp with a client that declares roots', () => {
  it('reads only under the client roots (not FOLIO_ALLOWED_DIRS), and follows roots/list_changed', async () => {
    let roots = [{ uri: pathToFileURL(path.join(root, 'sub')).href, name: 'sub' }];
    const server = await connectStdio(env, { capabilities: { roots: { listChanged: true } } }, (client: Client) => {
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
    });
    try {
      const inside = await callParse(server.client, { filePath: path.join(root, 'sub', 'blog-in-sub.html') });
      expect(inside.isError).toBeFalsy();
      expect(textOf(inside)).toContain('GPT-4 is currently the state of the art LLM');
      // Relative paths resolve against the first client root.
      const relative = await callParse(server.client, { filePath: 'blog-in-sub.html' });
      expect(textOf(relative)).toContain('GPT-4 is currently the state of the art LLM');

      const corpus = await callParse(server.client, { filePath: corpusPath('html', 'markitdown', 'test_blog.html') });
      expect(corpus.isError).toBe(true);
      expect(corpus.structuredContent).toMatchObject({ code: 'FORBIDDEN' });
      expect(textOf(corpus)).toContain(`outside the directories this folio server may read (${path.join(root, 'sub')})`);
      expect((await callParse(server.client, { filePath: path.join(root, 'blog.html') })).isError).toBe(true);

      roots = [{ uri: pathToFileURL(root).href, name: 'root' }];
      await server.client.sendRootsListChanged();
      // The notification is handled before the next request on the same pipe.
      const widened = await callParse(server.client, { filePath: path.join(root, 'blog.html') });
      expect(widened.isError).toBeFalsy();
      expect(server.stderr()).toContain('"msg":"using the client roots"');
    } finally {
      await server.close();
    }
  });
});

describe('folio mcp on stdout and stdin', () => {
  it('writes only protocol messages to stdout while libraries print, and exits with 0 when stdin closes', async () => {
    const transport = new RecordingStdioTransport({ ...env, LOG_LEVEL: 'debug' }, ['--import', './test/mcp/stdio-chatty-preload.mjs']);
    const client = new Client({ name: 'folio-test', version: '1.0.0' });
    await client.connect(transport);
    const pdf = await callParse(client, { filePath: corpusPath('pdf', 'pdfjs', 'basicapi.pdf'), parsers: [{ type: 'pdf', mode: 'fast' }] });
    expect(textOf(pdf)).toContain('Table Of Content');
    expect(textOf(pdf)).toMatch(/Chapter 1 \.{10,} 2\s+Paragraph 1\.1/);
    const xlsx = await callParse(client, { filePath: corpusPath('office', 'xlsx', 'markitdown-test.xlsx') });
    expect(textOf(xlsx)).toContain('6ff4173b-42a5-4784-9b19-f49caff4d93d');
    // SheetJS prints "Missing Info for XLS Record …" on this file (on console.error).
    await callParse(client, { filePath: path.join(root, 'damaged.xls') });
    await new Promise((resolve) => setTimeout(resolve, 200));

    // Everything printed went to stderr; stdout held protocol messages only.
    for (const printed of ['chatter: console.log', 'chatter: console.info', 'chatter: console.debug', 'console.table', 'chatter: a direct process.stdout.write', 'Missing Info for XLS Record']) {
      expect(transport.stderrText).toContain(printed);
    }
    expect(transport.stray).toEqual([]);
    expect(transport.lines.length).toBeGreaterThanOrEqual(4);

    const started = Date.now();
    await transport.close();
    expect(await transport.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(transport.stderrText).toContain('"msg":"stdin closed; stopping"');
    expect(transport.stray).toEqual([]);
  });

  it('refuses FOLIO_API_URL without FOLIO_API_KEY at start, on stderr, with exit 1', async () => {
    const child = spawn(MCP_COMMAND.command, MCP_COMMAND.args, { cwd: REPO_ROOT, env: { ...process.env, FOLIO_API_URL: 'http://127.0.0.1:9' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('FOLIO_API_URL is set (http://127.0.0.1:9) but FOLIO_API_KEY is not');
  });

  it('folio mcp with an argument is a usage error (exit 2), before stdout is touched', async () => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['mcp', '--port', '1'], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, () => loadConfig({}));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('mcp takes no arguments');
    expect(stderr).toContain('Usage: folio <command>');
  });
});
