/**
 * SIEM audit events (docs/audit.md) through a started service: a local webhook collector, syslog
 * receivers over UDP and TCP and a JSON lines file receive one event per /v2 request and per MCP
 * tool call, with their fields and never the document's content or file name; a sink that hangs
 * does not slow requests, and the events dropped past the buffer are counted in the log.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import type { AuditEvent } from '../../src/audit/index.ts';
import { postParse, request, startTestService, upload, type TestService } from '../http/helpers.ts';
import { connectMcp, structuredOf } from '../mcp/helpers.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { startDeadSink, startTcpSyslog, startUdpSyslog, startWebhookCollector } from './listeners.ts';

const MARKER = `AUDITMARK${randomBytes(8).toString('hex')}`;
/** The file name carries the marker too: events hold its hash only. */
const FILE_NAME = `board-minutes-${MARKER}.html`;
const HTML = `<html><head><title>Minutes ${MARKER}</title></head><body><h1>Board minutes</h1><p>Confidential: ${MARKER}.</p><a href="https://example.com/${MARKER}">link</a></body></html>`;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** RFC 5424: <PRI>VERSION SP TIMESTAMP SP HOSTNAME SP APP-NAME SP PROCID SP MSGID SP STRUCTURED-DATA SP MSG */
const RFC5424 = /^<(\d{1,3})>1 (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) (\S+) folio (\d+) (\S+) - (\{.*\})$/s;

const started: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  for (const s of started.reverse()) await s.stop().catch(() => undefined);
});

async function service(env: Record<string, string>): Promise<TestService> {
  const s = await startTestService({ runner: inProcessRunner() }, { FOLIO_DEFAULT_ZDR: 'on', FOLIO_AUDIT_ALLOW_HTTP_LOOPBACK: 'on', ...env });
  started.push(s);
  return s;
}

function syslogEvent(message: string): { pri: number; msgId: string; event: AuditEvent } {
  const m = RFC5424.exec(message);
  expect(m, message.slice(0, 200)).not.toBeNull();
  const [, pri, time, , pid, msgId, json] = m as RegExpExecArray;
  const event = JSON.parse(json ?? '') as AuditEvent;
  expect(event.time).toBe(time);
  expect(Number(pid)).toBeGreaterThan(0);
  return { pri: Number(pri), msgId: msgId ?? '', event };
}

describe('SIEM audit events', () => {
  it('webhook sink: a multipart parse, a refused parse and an MCP tool call, each one event with its fields, batched as JSON arrays, none with the content or the file name', async () => {
    const collector = await startWebhookCollector();
    started.push({ stop: () => collector.close() });
    const s = await service({ FOLIO_DEFAULT_SIEM: collector.url });
    const { key, id: keyId } = await s.createKey('test-team');

    const parsed = await postParse(
      { url: s.url, key },
      upload(FILE_NAME, HTML, { formats: ['markdown', 'links'], onlyMainContent: false, zeroDataRetention: true, auditMetadata: { username: 'alice@example.com' } }),
    );
    expect(parsed.status).toBe(200);
    expect(JSON.stringify(parsed.json)).toContain(MARKER);

    const refused = await postParse({ url: s.url, key }, upload(FILE_NAME, HTML, { timeout: 'soon' }));
    expect(refused.status).toBe(400);

    // MCP: the file goes by upload ticket, then the parse tool takes its uploadRef.
    const ticket = await request(`${s.url}/v2/uploads`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ filename: FILE_NAME })) });
    expect(ticket.status).toBe(200);
    const put = await request(String(ticket.json.uploadUrl), { method: 'PUT', body: Buffer.from(HTML) });
    expect(put.status).toBe(200);
    const client = await connectMcp(`${s.url}/v2/mcp`, { authorization: `Bearer ${key}` });
    const result = await client.callTool({ name: 'parse', arguments: { uploadRef: ticket.json.uploadRef, formats: ['markdown'], redactPII: true } });
    await client.close();
    expect(String(structuredOf(result).markdown)).toContain('Board minutes');

    // POST /v2/uploads is a request too: four events.
    await collector.waitFor(1);
    const events = async () => collector.received.flatMap((p) => JSON.parse(p.body) as AuditEvent[]);
    const until = Date.now() + 15_000;
    while ((await events()).length < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const all = await events();
    expect(all).toHaveLength(4);
    for (const post of collector.received) {
      expect(post.headers['content-type']).toBe('application/json');
      expect(Array.isArray(JSON.parse(post.body))).toBe(true);
      expect(post.body).not.toContain(MARKER);
      expect(post.body).not.toContain('board-minutes');
    }

    const httpParse = all.find((e) => e.door === 'http' && e.operation === 'parse' && e.status === 200);
    expect(httpParse).toMatchObject({
      version: 1,
      teamId: s.teamId,
      teamName: 'test-team',
      actor: { kind: 'api-key', keyId },
      door: 'http',
      operation: 'parse',
      file: { nameSha256: sha256(FILE_NAME), size: Buffer.byteLength(HTML), contentType: 'text/plain' },
      formats: ['markdown', 'links'],
      options: { onlyMainContent: false, timeout: 30000 },
      status: 200,
      errorCode: null,
      pages: null,
      // One page (FOLIO_PRICE_PAGE) and the Zero Data Retention surcharge (FOLIO_PRICE_ZDR), as charged by src/accounts.
      credits: 2,
      zeroDataRetention: true,
      username: 'alice@example.com',
    });
    expect(httpParse?.requestId).toMatch(UUID);
    expect(Date.parse(httpParse?.time ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(httpParse?.durationMs).toBeGreaterThan(0);

    const httpRefused = all.find((e) => e.door === 'http' && e.operation === 'parse' && e.status !== 200);
    expect(httpRefused).toMatchObject({ status: 400, errorCode: 'BAD_REQUEST', zeroDataRetention: false, username: null });

    expect(all.find((e) => e.operation === 'uploads')).toMatchObject({ door: 'http', status: 200, file: null });

    const mcp = all.find((e) => e.door === 'mcp');
    expect(mcp).toMatchObject({
      teamId: s.teamId,
      actor: { kind: 'api-key', keyId },
      operation: 'parse',
      file: { nameSha256: sha256(FILE_NAME), size: Buffer.byteLength(HTML) },
      formats: ['markdown'],
      options: { redactPII: true },
      status: 200,
      errorCode: null,
      zeroDataRetention: false,
    });
    expect(new Set(all.map((e) => e.requestId)).size).toBe(4);
  });

  it('a webhook that fails gets the same events again, with backoff, until it takes them', async () => {
    const collector = await startWebhookCollector();
    started.push({ stop: () => collector.close() });
    collector.status = 503;
    const s = await service({ FOLIO_DEFAULT_SIEM: collector.url });
    expect((await postParse(s, upload(FILE_NAME, HTML))).status).toBe(200);
    const until = Date.now() + 10_000;
    while (collector.attempts < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(collector.attempts).toBeGreaterThanOrEqual(2);
    expect(collector.received).toHaveLength(0);
    collector.status = 200;
    const [post] = await collector.waitFor(1);
    expect((JSON.parse(post?.body ?? '[]') as AuditEvent[]).map((e) => e.operation)).toEqual(['parse']);
  });

  it('syslog over UDP: one RFC 5424 datagram per request, facility 13, the event as its message, pages of a PDF', async () => {
    const udp = await startUdpSyslog();
    started.push({ stop: () => udp.close() });
    const s = await service({ FOLIO_DEFAULT_SIEM: udp.url });
    const pdf = readCorpus('pdf', 'pdfjs', 'basicapi.pdf');
    const parsed = await postParse(s, upload('paper.pdf', pdf, { formats: ['markdown'] }));
    expect(parsed.status).toBe(200);
    const numPages = (parsed.json.data as { metadata: { numPages: number } }).metadata.numPages;
    expect(numPages).toBeGreaterThan(0);
    const missing = await request(`${s.url}/v2/crawl/00000000-0000-4000-8000-000000000000`, { headers: { authorization: `Bearer ${s.key}` } });
    expect(missing.status).toBe(404);

    const [first, second] = (await udp.waitFor(2)).map(syslogEvent);
    expect(first?.pri).toBe(13 * 8 + 6);
    expect(first?.msgId).toBe('parse');
    expect(first?.event).toMatchObject({ door: 'http', operation: 'parse', status: 200, pages: numPages, file: { nameSha256: sha256('paper.pdf'), size: pdf.length } });
    // A failed request: severity notice (5).
    expect(second?.pri).toBe(13 * 8 + 5);
    expect(second?.event).toMatchObject({ operation: 'crawl.status', status: 404, errorCode: 'NOT_FOUND', file: null });
  });

  it('syslog over TCP: octet-counted RFC 5424 frames on one connection; an MCP call with an OAuth token names its client', async () => {
    const tcp = await startTcpSyslog();
    started.push({ stop: () => tcp.close() });
    const s = await service({ FOLIO_DEFAULT_SIEM: tcp.url });
    for (let i = 0; i < 3; i++) expect((await postParse(s, upload(FILE_NAME, HTML))).status).toBe(200);
    const messages = [...(await tcp.waitFor(3))];

    const grant = await s.store.createOAuthGrant({ clientId: 'https://client.example/cimd.json', teamId: s.teamId, scope: 'mcp', resource: '/v2/mcp-oauth' });
    const { access_token } = await s.tokens.issue(grant);
    const client = await connectMcp(`${s.url}/v2/mcp-oauth`, { authorization: `Bearer ${access_token}` });
    const missing = await client.callTool({ name: 'crawl_status', arguments: { id: '00000000-0000-4000-8000-000000000000' } });
    await client.close();
    expect(missing.isError).toBe(true);
    const oauth = syslogEvent((await tcp.waitFor(4))[3] ?? '');
    expect(oauth.pri).toBe(13 * 8 + 5);
    expect(oauth.event).toMatchObject({
      door: 'mcp',
      operation: 'crawl_status',
      actor: { kind: 'oauth', oauthClientId: 'https://client.example/cimd.json' },
      teamId: s.teamId,
      status: 404,
      errorCode: 'NOT_FOUND',
      file: null,
    });

    for (const message of messages) {
      expect(message).not.toContain(MARKER);
      const { pri, event } = syslogEvent(message);
      expect(pri).toBe(110);
      expect(event).toMatchObject({ operation: 'parse', status: 200, teamId: s.teamId, file: { nameSha256: sha256(FILE_NAME) } });
    }
  });

  it('JSON lines file sink: one line per request', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-audit-'));
    started.push({ stop: async () => fs.rmSync(dir, { recursive: true, force: true }) });
    const file = path.join(dir, 'audit.jsonl');
    const s = await service({ FOLIO_DEFAULT_SIEM: file });
    expect((await postParse(s, upload(FILE_NAME, HTML, { zeroDataRetention: true }))).status).toBe(200);
    expect((await postParse(s, upload(FILE_NAME, HTML))).status).toBe(200);
    const until = Date.now() + 10_000;
    const lines = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
    while (lines().length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const events = lines().map((l) => JSON.parse(l) as AuditEvent);
    expect(events.map((e) => e.zeroDataRetention)).toEqual([true, false]);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(MARKER);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a sink that never answers does not slow requests; events past the buffer are dropped, counted and logged', async () => {
    const dead = await startDeadSink();
    started.push({ stop: () => dead.close() });
    const s = await service({ FOLIO_DEFAULT_SIEM: dead.url, FOLIO_AUDIT_BUFFER: '3' });
    const requests = 12;
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const t0 = performance.now();
      expect((await postParse(s, upload(FILE_NAME, HTML))).status).toBe(200);
      times.push(performance.now() - t0);
    }
    // The sink's delivery timeout is 10 s: a request that waited for it would take that long.
    expect(Math.max(...times)).toBeLessThan(3_000);
    // The first batch reached the sink (and hangs there).
    const until = Date.now() + 10_000;
    while (dead.requests() < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(dead.requests()).toBe(1);
    await s.stop();
    const dropLines = s.logLines().filter((l) => l.msg?.toString().startsWith('audit events dropped'));
    expect(dropLines.length).toBeGreaterThan(0);
    expect(dropLines.reduce((n, l) => n + Number(l.dropped), 0)).toBe(requests);
    expect(dropLines.every((l) => l.sink === `webhook ${new URL(dead.url).origin}/siem`)).toBe(true);
    expect(s.logText()).not.toContain(MARKER);
  });
});
