/**
 * The upload command → uploadRef round trip over HTTP (issue 5 §5): a ticket, a real `curl`
 * PUT of a corpus file, a JSON parse by uploadRef, the same markdown as a multipart parse of the
 * same file; single use, owner binding, tampering, deletion of the bytes, and no secret in a log.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlUploadCommand } from '../../src/uploads/command.ts';
import { corpusPath, readCorpus } from '../helpers/corpus.ts';
import { postParse, request, startTestService, upload, type RawResponse, type TestService } from '../http/helpers.ts';
import { curlUpload, parseByRef, requestTicket, sh, storedFiles, ticketFor, tokenOf, type Ticket } from './helpers.ts';

const DOCX = ['office', 'docx', 'kreuzberg-extraction_test.docx'];
const PDF = ['pdf', 'pdfjs', 'rotation.pdf'];

let service: TestService;
let tmp: string;
/** Every ref and token handed out, to check that none reached a log line. */
const secrets: string[] = [];

async function ticket(filename: string, key?: string): Promise<Ticket> {
  const t = await ticketFor(service, filename, key);
  secrets.push(t.uploadRef, tokenOf(t.uploadUrl));
  return t;
}

/** A ticket with the corpus file uploaded through curl. */
async function uploaded(parts: string[], key?: string): Promise<Ticket> {
  const t = await ticket(path.basename(parts.at(-1) ?? ''), key);
  const put = await curlUpload(t, corpusPath(...parts));
  expect(put.status).toBe(200);
  return t;
}

beforeAll(async () => {
  service = await startTestService();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-uploads-'));
});
afterAll(async () => {
  await service.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the round trip', () => {
  it('ticket → curl PUT → parse by uploadRef gives the markdown of a multipart parse of the same file', async () => {
    const res = await requestTicket(service, 'kreuzberg-extraction_test.docx');
    expect(res.status).toBe(200);
    const t = res.json as unknown as Ticket;
    secrets.push(t.uploadRef, tokenOf(t.uploadUrl));
    expect(t).toEqual({
      success: true,
      uploadRef: expect.stringMatching(/^upl_[A-Za-z0-9_-]{43}$/),
      uploadUrl: expect.stringMatching(new RegExp(`^${service.urls.base}/v2/uploads/[A-Za-z0-9_-]{43}$`)),
      method: 'PUT',
      expiresAt: expect.any(String),
      maxBytes: 52428800,
    });
    // Two different secrets: the URL does not contain the ref, and carries no API key.
    expect(t.uploadUrl).not.toContain(t.uploadRef.slice(4));
    expect(t.uploadUrl).not.toContain(service.key);
    const ttl = Date.parse(t.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);

    const put = await curlUpload(t, corpusPath(...DOCX));
    expect(put.status).toBe(200);
    const size = fs.statSync(corpusPath(...DOCX)).size;
    expect(put.json).toEqual({ success: true, uploadRef: t.uploadRef, bytes: size, expiresAt: t.expiresAt });
    expect(storedFiles(service)).toHaveLength(1);

    const byRef = await parseByRef(service, { uploadRef: t.uploadRef, formats: ['markdown', 'links'] });
    const direct = await postParse(service, upload('kreuzberg-extraction_test.docx', readCorpus(...DOCX), { formats: ['markdown', 'links'] }));
    expect(direct.status).toBe(200);
    expect(byRef.status).toBe(200);
    const data = (byRef.json as { data: { markdown: string; links: string[]; metadata: Record<string, unknown> } }).data;
    const want = (direct.json as { data: { markdown: string; links: string[]; metadata: Record<string, unknown> } }).data;
    expect(data.markdown.length).toBeGreaterThan(100);
    expect(data.markdown).toBe(want.markdown);
    expect(data.links).toEqual(want.links);
    expect(data.metadata).toEqual(want.metadata);
    // The bytes are deleted right after the parse.
    expect(storedFiles(service)).toEqual([]);
  });

  it('the upload command (a shell line) works for a path with spaces and quotes, and holds no API key', async () => {
    const file = path.join(tmp, "it's a report.pdf");
    fs.copyFileSync(corpusPath(...PDF), file);
    const t = await ticket(path.basename(file));
    const command = curlUploadCommand(t, file);
    expect(command).not.toContain(service.key);
    expect(command).not.toContain(t.uploadRef);
    const { stdout } = await sh(command);
    expect(JSON.parse(stdout)).toMatchObject({ success: true, uploadRef: t.uploadRef, bytes: fs.statSync(file).size });
    const res = await parseByRef(service, { uploadRef: t.uploadRef });
    expect(res.status).toBe(200);
    const direct = await postParse(service, upload('rotation.pdf', readCorpus(...PDF)));
    expect((res.json.data as { markdown: string }).markdown).toBe((direct.json.data as { markdown: string }).markdown);
    expect((res.json.data as { metadata: { sourceURL: string } }).metadata.sourceURL).toBe("file:///it's%20a%20report.pdf");
  });

  it('parse options travel beside the uploadRef and are validated before the ref is spent', async () => {
    const t = await uploaded(DOCX);
    const bad = await parseByRef(service, { uploadRef: t.uploadRef, parsers: [{ type: 'pdf', maxPages: 0 }] });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('parsers[0].maxPages') });
    const good = await parseByRef(service, { uploadRef: t.uploadRef, formats: ['html'] });
    expect(good.status).toBe(200);
    expect(good.json.data).toHaveProperty('html');
    expect(good.json.data).not.toHaveProperty('markdown');
  });
});

describe('single use, owner binding, tampering', () => {
  it('a second parse with the same ref is refused and says it was used', async () => {
    const t = await uploaded(DOCX);
    expect((await parseByRef(service, { uploadRef: t.uploadRef })).status).toBe(200);
    const again = await parseByRef(service, { uploadRef: t.uploadRef });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('already been used') });
  });

  it('two parses racing for one ref: exactly one gets the file', async () => {
    const t = await uploaded(DOCX);
    const answers = await Promise.all([1, 2, 3].map(() => parseByRef(service, { uploadRef: t.uploadRef })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    expect(answers.filter((a) => a.status === 400).every((a) => String(a.json.error).includes('already been used'))).toBe(true);
  });

  it('a PUT while another PUT to the same URL is streaming is refused', async () => {
    const t = await ticket('race.docx');
    const first = http.request(t.uploadUrl, { method: 'PUT', agent: false });
    const firstAnswer = new Promise<RawResponse>((resolve, reject) => {
      first.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '', json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
      });
      first.on('error', reject);
    });
    const docx = readCorpus(...DOCX);
    await new Promise<void>((resolve) => first.write(docx.subarray(0, 1000), () => resolve()));
    // The first PUT is streaming once its part file exists.
    const until = Date.now() + 2000;
    while (!storedFiles(service).some((f) => f.endsWith('.part')) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    const second = await request(t.uploadUrl, { method: 'PUT', body: docx });
    expect(second.status).toBe(400);
    expect(second.json.error).toContain('being uploaded to this URL right now');
    first.end(docx.subarray(1000));
    expect((await firstAnswer).status).toBe(200);
    expect((await parseByRef(service, { uploadRef: t.uploadRef })).status).toBe(200);
  });

  it('a second PUT to the same URL is refused', async () => {
    const t = await uploaded(DOCX);
    const again = await curlUpload(t, corpusPath(...PDF));
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('already been uploaded to this URL') });
    // The first file is the one parsed.
    const res = await parseByRef(service, { uploadRef: t.uploadRef });
    expect((res.json.data as { metadata: { contentType: string } }).metadata.contentType).toContain('wordprocessingml');
  });

  it('a parse before the upload says to run the upload command first, and leaves the ref usable', async () => {
    const t = await ticket('report.docx');
    const early = await parseByRef(service, { uploadRef: t.uploadRef });
    expect(early.status).toBe(400);
    expect(early.json.error).toContain('Run the upload command first');
    expect((await curlUpload(t, corpusPath(...DOCX))).status).toBe(200);
    expect((await parseByRef(service, { uploadRef: t.uploadRef })).status).toBe(200);
  });

  it("another team's ref is refused with exactly the message of an unknown ref, and stays usable by its owner", async () => {
    const other = await service.createKey('other-team');
    const t = await uploaded(DOCX);
    const foreign = await parseByRef(service, { uploadRef: t.uploadRef }, other.key);
    const unknown = await parseByRef(service, { uploadRef: `upl_${'A'.repeat(43)}` });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({ success: false, code: 'NOT_FOUND', error: expect.stringContaining('Unknown uploadRef') });
    expect(unknown.status).toBe(foreign.status);
    expect(unknown.json).toEqual(foreign.json);
    expect((await parseByRef(service, { uploadRef: t.uploadRef })).status).toBe(200);
  });

  it('tampered refs are refused as malformed, a flipped character as unknown', async () => {
    const t = await uploaded(DOCX);
    const flipped = t.uploadRef.slice(0, -1) + (t.uploadRef.endsWith('A') ? 'B' : 'A');
    for (const uploadRef of [t.uploadRef.slice(0, -1), `${t.uploadRef}x`, t.uploadRef.replace('upl_', 'upx_'), 'upl_../../etc/passwd', `${t.uploadRef.slice(0, -1)}!`]) {
      const res = await parseByRef(service, { uploadRef });
      expect(res.status, uploadRef).toBe(400);
      expect(res.json).toEqual({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('Invalid uploadRef') });
    }
    const res = await parseByRef(service, { uploadRef: flipped });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('NOT_FOUND');
    for (const body of [{ uploadRef: 42 }, {}, { uploadRef: [t.uploadRef] }]) {
      const r = await parseByRef(service, body);
      expect(r.status).toBe(400);
      expect(r.json.error).toContain('needs `uploadRef`');
    }
    // None of it spent the real ref.
    expect((await parseByRef(service, { uploadRef: t.uploadRef })).status).toBe(200);
  });

  it('tampered upload URLs are refused: malformed 400, unknown 404; neither stores anything', async () => {
    const t = await ticket('report.docx');
    const token = tokenOf(t.uploadUrl);
    const base = t.uploadUrl.slice(0, -token.length);
    const put = (url: string) => request(url, { method: 'PUT', body: Buffer.from('<html><body>x</body></html>') });
    const malformed = await put(`${base}${token.slice(0, -1)}`);
    expect(malformed.status).toBe(400);
    expect(malformed.json).toEqual({ success: false, code: 'BAD_REQUEST', error: expect.stringContaining('upload URL is malformed') });
    const unknown = await put(`${base}${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('NOT_FOUND');
    // The error bodies never echo the token.
    expect(malformed.text + unknown.text).not.toContain(token.slice(0, 20));
    expect(storedFiles(service)).toEqual([]);
    // The real URL still works.
    expect((await curlUpload(t, corpusPath(...DOCX))).status).toBe(200);
  });

  it('the PUT needs no API key, while POST /v2/uploads does', async () => {
    const res = await request(`${service.url}/v2/uploads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"filename":"a.pdf"}') });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('UNAUTHORIZED');
  });
});

describe('tickets', () => {
  it('refuse a missing filename, a directory and an extension parse does not accept', async () => {
    const missing = await request(`${service.url}/v2/uploads`, { method: 'POST', headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' }, body: Buffer.from('{}') });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toContain('`filename` is required');
    const dir = await requestTicket(service, 'reports/');
    expect(dir.status).toBe(400);
    const exe = await requestTicket(service, 'tool.exe');
    expect(exe.status).toBe(400);
    expect(exe.json).toEqual({ success: false, code: 'UNSUPPORTED_FILE_TYPE', error: expect.stringContaining(".pdf, .docx") });
    const notJson = await request(`${service.url}/v2/uploads`, { method: 'POST', headers: { authorization: `Bearer ${service.key}`, 'content-type': 'text/plain' }, body: Buffer.from('a.pdf') });
    expect(notJson.status).toBe(400);
    expect(notJson.json.error).toContain('expects a JSON body');
    const broken = await request(`${service.url}/v2/uploads`, { method: 'POST', headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' }, body: Buffer.from('{"filename":') });
    expect(broken.status).toBe(400);
    expect(broken.json.code).toBe('BAD_REQUEST');
  });

  it('a path is reduced to its file name, which names the parsed document', async () => {
    const t = await ticket('/home/someone/secret folder/kreuzberg.docx');
    expect((await curlUpload(t, corpusPath(...DOCX))).status).toBe(200);
    const res = await parseByRef(service, { uploadRef: t.uploadRef });
    expect((res.json.data as { metadata: { sourceURL: string } }).metadata.sourceURL).toBe('file:///kreuzberg.docx');
  });
});

describe('secrets stay out of logs', () => {
  it('no log line carries an upload token or an uploadRef', () => {
    expect(secrets.length).toBeGreaterThan(10);
    const log = service.logText();
    expect(log).toContain('/v2/uploads/[redacted]');
    for (const secret of secrets) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(secret.replace(/^upl_/, ''));
    }
  });
});
