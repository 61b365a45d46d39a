/**
 * Helpers of the upload round trip tests: ask for a ticket, really run curl with what it says,
 * parse by uploadRef, and look at what is left on disk.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { request, type RawResponse, type TestService } from '../http/helpers.ts';

export interface Ticket {
  uploadRef: string;
  uploadUrl: string;
  method: 'PUT';
  expiresAt: string;
  maxBytes: number;
}

export async function requestTicket(service: Pick<TestService, 'url' | 'key'>, filename: string, key = service.key): Promise<RawResponse> {
  return request(`${service.url}/v2/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ filename })),
  });
}

export async function ticketFor(service: Pick<TestService, 'url' | 'key'>, filename: string, key = service.key): Promise<Ticket> {
  const res = await requestTicket(service, filename, key);
  if (res.status !== 200) throw new Error(`ticket refused: ${res.status} ${res.text}`);
  return res.json as unknown as Ticket;
}

export interface CurlResult {
  json: Record<string, unknown>;
  stdout: string;
  stderr: string;
}

/** Runs /usr/bin/curl with the ticket's method and URL on a local file (`-w` appends the status). */
export function curlUpload(ticket: Pick<Ticket, 'method' | 'uploadUrl'>, file: string, extra: string[] = []): Promise<CurlResult & { status: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      'curl',
      ['-sS', '-X', ticket.method, '-T', file, '-w', '\n%{http_code}', ...extra, ticket.uploadUrl],
      { maxBuffer: 1024 * 1024, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) {
          reject(new Error(`curl failed: ${err.message} ${stderr}`));
          return;
        }
        const cut = stdout.lastIndexOf('\n');
        const body = stdout.slice(0, cut);
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(body) as Record<string, unknown>;
        } catch {
          // asserted by the caller
        }
        resolve({ json, stdout: body, stderr, status: Number(stdout.slice(cut + 1)) });
      },
    );
  });
}

/** Runs a shell command line (the upload command a tool hands out). */
export function sh(command: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', command], { maxBuffer: 1024 * 1024, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${command} failed: ${err.message} ${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

export function parseByRef(service: Pick<TestService, 'url' | 'key'>, body: Record<string, unknown>, key = service.key): Promise<RawResponse> {
  return request(`${service.url}/v2/parse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  });
}

export function uploadDir(service: Pick<TestService, 'dataDir'>): string {
  return path.join(service.dataDir, 'uploads');
}

export function storedFiles(service: Pick<TestService, 'dataDir'>): string[] {
  return fs.readdirSync(uploadDir(service));
}

/** The keys of the stored uploads, through the storage interface: the same on every blob backend (FOLIO_BLOB_URL). */
export async function storedKeys(service: Pick<TestService, 'blobs'>): Promise<string[]> {
  return (await service.blobs.uploads.list()).map((o) => o.key).sort();
}

/** The token of an upload URL (the last path segment). */
export function tokenOf(uploadUrl: string): string {
  return new URL(uploadUrl).pathname.split('/').pop() ?? '';
}

export function tempFile(dir: string, name: string, data: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
}
