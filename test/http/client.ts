/**
 * The tests' raw HTTP client and multipart body builder, without the service: a file that talks
 * to a server it spawned (the CLI, a production install) imports this instead of helpers.ts, whose
 * import of the whole app costs seconds it would not use. helpers.ts re-exports all of it.
 */
import http from 'node:http';

export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: string | Buffer;
}

export const BOUNDARY = 'folio-test-boundary-7MA4YWxkTrZu0gW';

export function multipartBody(parts: Part[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.contentType) head += `Content-Type: ${p.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: Record<string, unknown>;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Fails the test when no answer came within this many ms. */
  timeoutMs?: number;
}

export function request(url: string, req: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const r = http.request(url, { method: req.method ?? 'GET', headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // not JSON: the assertions on `text` will say so
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    const timer = setTimeout(() => {
      r.destroy();
      reject(new Error(`no answer within ${req.timeoutMs ?? 20_000} ms`));
    }, req.timeoutMs ?? 20_000);
    r.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    r.end(req.body);
  });
}

/** A request with `key` as the Bearer credential and, when given, `body` as JSON. */
export function keyedJson(baseUrl: string, method: string, path: string, key: string, body?: unknown, timeoutMs = 90_000): Promise<RawResponse> {
  return request(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: Buffer.from(JSON.stringify(body)) } : {}),
    timeoutMs,
  });
}

/** POST /v2/parse with a multipart body. */
export function postParse(service: { url: string; key: string }, parts: Part[], extra: RawRequest = {}): Promise<RawResponse> {
  return request(`${service.url}/v2/parse`, {
    method: 'POST',
    ...extra,
    headers: {
      authorization: `Bearer ${service.key}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...extra.headers,
    },
    body: multipartBody(parts),
  });
}

/** A file part and, when given, an options part (as a text field, the way the SDKs send it). */
export function upload(filename: string, data: Buffer | string, options?: unknown): Part[] {
  const parts: Part[] = [];
  if (options !== undefined) parts.push({ name: 'options', data: typeof options === 'string' ? options : JSON.stringify(options) });
  parts.push({ name: 'file', filename, data });
  return parts;
}
