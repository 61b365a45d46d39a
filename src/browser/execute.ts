/**
 * `POST /v2/browser/{id}/execute` and interact's `code`: a caller's Node code run against a
 * session's page, in a child process under Node's permission model (`--experimental-permission`):
 *
 *   - no file system writes, except to a scratch directory of its own (Playwright's client needs
 *     one for its artifacts), deleted after the run; reads only of Playwright's own files and the
 *     scratch directory (not folio's data, configuration or `/proc/<folio pid>/environ`, where
 *     its secrets are);
 *   - no child processes and no worker threads (the permission model refuses both);
 *   - network: the child may only open a TCP connection to the session's DevTools port on
 *     loopback (net.Socket's connect is wrapped before the code runs; UDP sockets and DNS lookups
 *     refused), so the code cannot reach around the browser's guarded proxy; the permission
 *     model also refuses process.binding, the inspector and workers, so the wrapping cannot be
 *     undone from below;
 *   - an empty environment (none of folio's variables, so no secret; TMPDIR only);
 *   - bounded time (`timeout`, killed with SIGKILL) and output (stdout and stderr kept up to
 *     MAX_OUTPUT_BYTES each, `truncated` then).
 *
 * The code is the body of an async function with `page`, `context` and `browser` (Playwright's,
 * connected over CDP to the session's Chromium); what it returns is `result` (a string, or JSON).
 */
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export const MAX_OUTPUT_BYTES = 64 * 1024;
export const DEFAULT_EXECUTE_TIMEOUT_SECONDS = 30;
export const MAX_EXECUTE_TIMEOUT_SECONDS = 300;

export interface ExecuteResult {
  stdout: string;
  stderr: string;
  /** What the code returned: a string as is, anything else as JSON; absent when it threw or returned nothing. */
  result?: string;
  exitCode: number;
  killed: boolean;
  truncated: boolean;
}

/** The child's program (CommonJS, run with `-e`): guards, connect, run the code read from stdin. */
const CHILD = String.raw`
'use strict';
const net = require('node:net');
const dgram = require('node:dgram');
const fs = require('node:fs');
const cdp = new URL(process.argv[1]);
const allowedPort = Number(cdp.port);
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = args[0];
  const opts = Array.isArray(first) ? first[0] : typeof first === 'object' && first !== null ? first : { port: first, host: args[1] };
  const host = String(opts.host ?? 'localhost');
  if (opts.path !== undefined || Number(opts.port) !== allowedPort || !['127.0.0.1', 'localhost', '::ffff:127.0.0.1'].includes(host)) {
    const err = new Error('Network access is limited to the browser session in folio\'s sandbox (refused ' + (opts.path ?? host + ':' + opts.port) + ')');
    err.code = 'ERR_ACCESS_DENIED';
    throw err;
  }
  return connect.apply(this, args);
};
const refuse = (what) => () => { const e = new Error(what + ' is refused in folio\'s sandbox'); e.code = 'ERR_ACCESS_DENIED'; throw e; };
dgram.createSocket = refuse('UDP');
dgram.Socket = refuse('UDP');
// Name lookups would reach the resolver (a way out for data): refused, promises and Resolver included.
const dns = require('node:dns');
const lookups = (o) => { for (const k of Object.keys(o)) if (/^(lookup|resolve|reverse)/.test(k) && typeof o[k] === 'function') o[k] = refuse('DNS'); };
lookups(dns); lookups(dns.promises); lookups(dns.Resolver.prototype); lookups(dns.promises.Resolver.prototype);
const { chromium } = require(process.argv[2]);
let code = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { code += d; });
process.stdin.on('end', async () => {
  let exit = 0;
  try {
    const browser = await chromium.connectOverCDP(cdp.href);
    const context = browser.contexts()[0];
    const page = context.pages()[0] ?? (await context.newPage());
    const AsyncFunction = (async () => undefined).constructor;
    const value = await new AsyncFunction('page', 'context', 'browser', code)(page, context, browser);
    if (value !== undefined) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      if (text !== undefined) fs.writeSync(3, text);
    }
  } catch (err) {
    process.stderr.write((err && err.code ? err.code + ': ' : '') + ((err && err.stack) ? String(err.stack) : String(err)));
    exit = 1;
  }
  process.exit(exit);
});
`;

const playwrightPath = (): string => realpathSync(createRequire(import.meta.url).resolve('playwright-core'));

/**
 * What the child may read: Playwright's client (its real directory) and the scratch directory.
 * Playwright also probes two WSL paths at load (existsSync throws under the permission model
 * when they are not allowed); neither exists on Linux proper.
 */
function readableBy(scratch: string): string[] {
  return [`${path.dirname(playwrightPath())}/*`, `${scratch}/*`, '/proc/sys/fs/binfmt_misc/WSLInterop', '/run/WSL'];
}

export interface ExecuteRequest {
  code: string;
  /** The session's DevTools endpoint (loopback). */
  devtoolsUrl: string;
  timeoutSeconds: number;
  signal?: AbortSignal;
}

/** Collects a stream's bytes up to a cap. */
function collector(cap: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  return {
    push(chunk: Buffer) {
      if (size >= cap) {
        truncated = true;
        return;
      }
      const part = chunk.subarray(0, cap - size);
      if (part.length < chunk.length) truncated = true;
      chunks.push(part);
      size += part.length;
    },
    get truncated() {
      return truncated;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

export async function executeCode(req: ExecuteRequest): Promise<ExecuteResult> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'folio-exec-'));
  try {
    return await new Promise<ExecuteResult>((resolve, reject) => {
      const child = spawn(process.execPath, ['--experimental-permission', ...readableBy(scratch).map((p) => `--allow-fs-read=${p}`), `--allow-fs-write=${scratch}`, '--no-warnings', '-e', CHILD, req.devtoolsUrl, playwrightPath()], {
        // Nothing of folio's environment (its secrets): only where temporary files go.
        env: { TMPDIR: scratch },
        cwd: scratch,
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      });
      const stdout = collector(MAX_OUTPUT_BYTES);
      const stderr = collector(MAX_OUTPUT_BYTES);
      const result = collector(MAX_OUTPUT_BYTES);
      let killed = false;
      const kill = () => {
        killed = true;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(kill, req.timeoutSeconds * 1000);
      req.signal?.addEventListener('abort', kill, { once: true });
      child.stdout?.on('data', (d: Buffer) => stdout.push(d));
      child.stderr?.on('data', (d: Buffer) => stderr.push(d));
      const resultPipe = child.stdio[3];
      if (resultPipe && 'on' in resultPipe) resultPipe.on('data', (d: Buffer) => result.push(d));
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', kill);
        const value = result.text();
        resolve({
          stdout: stdout.text(),
          stderr: killed ? `${stderr.text()}${stderr.text() ? '\n' : ''}Killed: the code ran longer than its timeout of ${req.timeoutSeconds} s.` : stderr.text(),
          ...(value !== '' ? { result: value } : {}),
          exitCode: code ?? (signal ? 137 : 1),
          killed,
          truncated: stdout.truncated || stderr.truncated || result.truncated,
        });
      });
      child.stdin?.end(req.code);
    });
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}
