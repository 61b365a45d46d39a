/**
 * The CLI as a user runs it (`tsx src/main.ts …`, a temp DATA_DIR): keys create/list/revoke,
 * parse of corpus files, usage errors and exit codes, and `serve` with a graceful stop.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.ts';
import { loadConfig } from '../../src/config.ts';
import { corpusPath, readCorpus } from '../helpers/corpus.ts';
import { testStoreEnv } from '../helpers/test-store.ts';
import { BOUNDARY, multipartBody, postParse, request, upload } from '../http/helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const KEY = /^folio_[A-Za-z0-9_-]{43}$/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let dataDir: string;
/** DATABASE_URL and REDIS_URL in the postgres+redis project (test/helpers/test-store.ts). */
let storeEnv: Record<string, string> = {};

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, DATA_DIR: dataDir, ...storeEnv, LOG_LEVEL: 'info', ...extra };
}

function folio(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['src/main.ts', ...args], { cwd: root, env: env() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The same CLI in this process (the dispatch and commands, without the process around them). */
async function folioInProcess(args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, () => loadConfig({ DATA_DIR: dataDir, ...storeEnv }));
  return { code, stdout, stderr };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-cli-'));
  storeEnv = await testStoreEnv(dataDir);
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('keys', () => {
  it('create prints only the key; list shows it without the key; revoke marks it', async () => {
    const created = await folio(['keys', 'create', '--team', 'acme']);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(created.stdout).toBe(`${key}\n`);
    expect(key).toMatch(KEY);
    const id = /key_[0-9a-f]{16}/.exec(created.stderr)?.[0] ?? '';
    expect(id).not.toBe('');
    expect(created.stderr).toContain("team 'acme'");

    const second = await folioInProcess(['keys', 'create', '--team', 'acme']);
    expect(second.stdout.trim()).toMatch(KEY);
    expect(second.stdout.trim()).not.toBe(key);

    const list = await folio(['keys', 'list']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+TEAM\s+PREFIX\s+CREATED\s+LAST USED\s+REVOKED$/);
    expect(lines).toHaveLength(3);
    const row = lines.find((l) => l.startsWith(id)) ?? '';
    expect(row.split(/\s{2,}/)).toEqual([id, 'acme', `${key.slice(0, 12)}…`, expect.stringMatching(/^\d{4}-\d\d-\d\dT/), '-', '-']);
    expect(list.stdout).not.toContain(key.slice(12));

    const json = await folio(['keys', 'list', '--json']);
    const parsed = JSON.parse(json.stdout) as { id: string; team: string; prefix: string; revokedAt: string | null }[];
    expect(parsed.map((k) => k.team)).toEqual(['acme', 'acme']);
    expect(json.stdout).not.toContain(key.slice(12));
    expect(json.stdout).not.toContain('keyHash');

    const revoked = await folio(['keys', 'revoke', id]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked API key ${id}`);
    const again = await folioInProcess(['keys', 'revoke', id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already revoked');
    const after = JSON.parse((await folioInProcess(['keys', 'list', '--json'])).stdout) as { id: string; revokedAt: string | null }[];
    expect(after.find((k) => k.id === id)?.revokedAt).toMatch(/^\d{4}-/);

    const unknown = await folioInProcess(['keys', 'revoke', 'key_0000000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no API key has the id 'key_0000000000000000'");
    expect(unknown.stdout).toBe('');
  });
});

describe.concurrent('parse', () => {
  it('prints the markdown of a corpus .docx', async () => {
    const run = await folio(['parse', corpusPath('office', 'docx', 'kreuzberg-extraction_test.docx')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('# Comprehensive Extraction Test Document');
    expect(run.stdout).toMatch(/\|\s*Cell 2A\s*\|\s*Cell 2B\s*\|\s*Cell 2C\s*\|/);
    expect(run.stdout).toMatch(/\|\s*Banana\s*\|\s*\$0\.50\s*\|\s*20\s*\|/);
  });

  it('--json prints the whole response object with the requested formats', async () => {
    const run = await folio(['parse', corpusPath('html', 'markitdown', 'test_blog.html'), '--formats', 'markdown,links', '--json']);
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout) as { success: boolean; data: { markdown: string; links: string[]; metadata: { contentType: string } } };
    expect(body.success).toBe(true);
    expect(body.data.markdown).toContain('GPT-4 is currently the state of the art LLM in the world');
    expect(body.data.links).toContain('https://arxiv.org/abs/2303.04673');
    expect(body.data.metadata.contentType).toBe('text/html');
  });

  it('PDF options: --mode, --max-pages, and --progress lines on stderr', async () => {
    const file = corpusPath('pdf', 'pdfjs', 'tracemonkey.pdf');
    const run = await folioInProcess(['parse', file, '--mode', 'fast', '--max-pages', '2', '--progress', '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('page 1 of 2\npage 2 of 2\n');
    const body = JSON.parse(run.stdout) as { data: { metadata: { numPages: number; totalPages: number } } };
    expect(body.data.metadata).toMatchObject({ numPages: 2, totalPages: 14 });
    const quiet = await folioInProcess(['parse', file, '--max-pages', '1']);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toContain('Trace-based Just-in-Time');
    const bad = await folioInProcess(['parse', file, '--mode', 'quick']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--mode must be fast, auto or ocr');
    const zero = await folioInProcess(['parse', file, '--max-pages', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--max-pages must be a whole number from 1 to 10000');
  });

  it('OCRs with the languages of FOLIO_OCR_LANGUAGES', async () => {
    let stdout = '';
    const configure = () => loadConfig({ DATA_DIR: dataDir, ...storeEnv, FOLIO_OCR_LANGUAGES: 'eng+zzz' });
    const file = corpusPath('pdf', 'pdfjs', 'basicapi.pdf');
    const code = await runCli(['parse', file, '--mode', 'ocr', '--max-pages', '1', '--json'], { stdout: (t) => (stdout += t), stderr: () => undefined }, configure);
    expect(code).toBe(0);
    const body = JSON.parse(stdout) as { data: { warning?: string } };
    expect(body.data.warning).toContain('the configured language zzz is not installed');
  });

  it('applies the limits at the source of the config (FOLIO_MAX_HTML_NODES)', async () => {
    let stderr = '';
    const page = path.join(dataDir, 'many.html');
    fs.writeFileSync(page, `<body>${'<p>x</p>'.repeat(2000)}</body>`);
    const configure = () => loadConfig({ DATA_DIR: dataDir, ...storeEnv, FOLIO_MAX_HTML_NODES: '1000' });
    const code = await runCli(['parse', page], { stdout: () => undefined, stderr: (t) => (stderr += t) }, configure);
    expect(code).toBe(1);
    expect(stderr).toContain('CORRUPT_FILE');
    expect(stderr).toContain('more than 1000 elements (the limit FOLIO_MAX_HTML_NODES)');
  });

  it('a file that cannot be parsed fails with exit 1 and the error code on stderr', async () => {
    const notes = path.join(dataDir, 'notes.txt');
    fs.writeFileSync(notes, 'plain text');
    const run = await folioInProcess(['parse', notes]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('UNSUPPORTED_FILE_TYPE');
    const missing = await folioInProcess(['parse', path.join(dataDir, 'missing.pdf')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no such file');
  });
});

describe.concurrent('usage', () => {
  it.each([
    [[], 'no command given'],
    [['keys', 'create', '--team', 'a', '--admin'], "Unknown option '--admin'"],
  ])('folio %j (a real process) → exit 2 with the usage text on stderr', async (args, message) => {
    const run = await folio(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Usage: folio <command>');
  });

  it.each([
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['keys'], 'keys needs a subcommand'],
    [['keys', 'rotate'], "unknown keys subcommand 'rotate'"],
    [['keys', 'create'], 'keys create needs --team <name>'],
    [['keys', 'create', '--team', '   '], 'keys create needs --team <name>'],
    [['keys', 'list', 'extra'], "unexpected argument 'extra'"],
    [['keys', 'revoke'], 'keys revoke needs the id'],
    [['parse'], 'parse needs a file'],
    [['parse', 'a.html', '--formats', 'links'], 'without --json only markdown is printed'],
    [['parse', 'a.html', '--formats', ','], '--formats needs at least one format'],
    [['serve', '--port', '1'], 'serve takes no arguments'],
  ])('folio %j → exit 2 with the usage text on stderr', async (args, message) => {
    const run = await folioInProcess(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Usage: folio <command>');
  });

  it('help prints the usage on stdout with exit 0', async () => {
    const run = await folioInProcess(['help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('keys create --team <name>');
    expect(run.stderr).toBe('');
  });
});

describe('serve', () => {
  it('logs its URL, serves with a CLI-made key, and on SIGTERM finishes the in-flight request before exiting', async () => {
    const key = (await folio(['keys', 'create', '--team', 'served'])).stdout.trim();
    // One process (`node --import tsx`): the tsx launcher would SIGKILL a server slow to acknowledge the relayed SIGTERM.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: root, env: env({ PORT: '0', HOST: '127.0.0.1' }) });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      // Starting from the TypeScript sources warms two parse processes under tsx: about 5 s on a
      // quiet machine, over 15 s under a full test run's load.
      const timer = setTimeout(() => reject(new Error(`no listening line in: ${out}`)), 45_000);
      child.stdout.on('data', () => {
        const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    const firstLine = JSON.parse(out.split('\n')[0] ?? '{}') as { msg: string; url: string };
    expect(firstLine.msg).toBe(`folio listening on ${url}`);
    expect((await request(`${url}/health`)).json).toEqual({ ok: true });
    const served = await postParse({ url, key }, upload('blog.html', readCorpus('html', 'markitdown', 'test_blog.html')));
    expect(served.status).toBe(200);

    // An upload in flight: the body is half sent when the stop signal arrives.
    const body = multipartBody(upload('blog.html', readCorpus('html', 'markitdown', 'test_blog.html')));
    const inflight = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(`${url}/v2/parse`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(body.length) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(body.subarray(0, 1000));
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(() => req.end(body.subarray(1000)), 300);
      }, 200);
    });
    const answer = await inflight;
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('GPT-4 is currently the state of the art LLM');
    expect(await exited).toBe(0);
    expect(out).toContain('"msg":"stopped"');
    // Keys never reach the log.
    expect(out).not.toContain(key);
    // New connections are refused after the stop.
    await expect(request(`${url}/health`, { timeoutMs: 2000 })).rejects.toThrow();
  });
});
