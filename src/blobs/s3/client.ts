/**
 * A small S3 REST client (Amazon S3 API Reference: PutObject, GetObject, HeadObject,
 * DeleteObject, ListObjectsV2) signed with Signature Version 4 (sigv4.ts), over node:http(s):
 * any S3 API — AWS, MinIO, Ceph RGW — at `endpoint`, path-style (`endpoint/bucket/key`) or
 * virtual-hosted (`bucket.endpoint/key`).
 *
 * Errors are S3RequestError with the operation, the bucket, the HTTP status and S3's own error
 * code and message, plus what to check for the common ones. Never the secret key, the
 * Authorization header or a signed URL.
 */
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { EMPTY_PAYLOAD_HASH, signRequest, uriEncode, type S3Credentials } from './sigv4.ts';

export interface S3Location {
  /** http(s)://host[:port][/path] of the S3 API, without the bucket. */
  endpoint: URL;
  bucket: string;
  region: string;
  /** `endpoint/bucket/key` (MinIO, Ceph, most self-hosted stores) instead of `bucket.endpoint/key`. */
  pathStyle: boolean;
  credentials: S3Credentials;
  /** Per request; default 60 s. */
  timeoutMs?: number;
}

export interface S3ObjectInfo {
  key: string;
  lastModified: Date;
  size: number;
}

export class S3RequestError extends Error {
  /** The S3 API's HTTP status (not `status`: express reads that as the status of its own answer). */
  readonly httpStatus: number | undefined;
  readonly s3Code: string | undefined;
  constructor(message: string, status?: number, s3Code?: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'S3RequestError';
    this.httpStatus = status;
    this.s3Code = s3Code;
  }
}

/** A body read from elsewhere (a spool file): its length is known before it is sent. */
export interface StreamedBody {
  open(): Readable;
  length: number;
}

export interface S3Client {
  putObject(key: string, body: Buffer | StreamedBody, sha256Hex: string, contentType?: string): Promise<void>;
  /** The object's bytes; undefined when there is none. */
  getObject(key: string): Promise<Buffer | undefined>;
  /** Size and time of the object; undefined when there is none. */
  headObject(key: string): Promise<{ size: number; lastModified: Date } | undefined>;
  /** Idempotent: a missing object is not an error. */
  deleteObject(key: string): Promise<void>;
  /** Every object under `prefix` (ListObjectsV2, page by page). */
  listObjects(prefix: string, limit?: number): Promise<S3ObjectInfo[]>;
}

interface Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const HINTS: Record<string, string> = {
  InvalidAccessKeyId: 'check FOLIO_BLOB_S3_ACCESS_KEY_ID (or AWS_ACCESS_KEY_ID)',
  SignatureDoesNotMatch: 'check FOLIO_BLOB_S3_SECRET_ACCESS_KEY (or AWS_SECRET_ACCESS_KEY) and FOLIO_BLOB_S3_REGION',
  AuthorizationHeaderMalformed: 'check FOLIO_BLOB_S3_REGION',
  ExpiredToken: 'the session token (AWS_SESSION_TOKEN) has expired',
  NoSuchBucket: 'create the bucket named in FOLIO_BLOB_URL',
  AccessDenied: 'the credentials need s3:PutObject, s3:GetObject, s3:DeleteObject and s3:ListBucket on the bucket',
  PermanentRedirect: 'the bucket is in another region: set FOLIO_BLOB_S3_REGION',
};

function xmlText(xml: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
  return m?.[1] === undefined ? undefined : decodeXml(m[1]);
}

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/g, '&');
}

export function createS3Client(location: S3Location): S3Client {
  const { endpoint, bucket, region, credentials } = location;
  const timeoutMs = location.timeoutMs ?? 60_000;
  const base = endpoint.pathname.replace(/\/+$/, '');
  const where = `bucket ${bucket} at ${endpoint.origin}`;

  const urlOf = (key: string, query: Record<string, string> = {}): URL => {
    const keyPath = key === '' ? '' : `/${uriEncode(key, false)}`;
    const url = location.pathStyle
      ? new URL(`${endpoint.origin}${base}/${uriEncode(bucket)}${keyPath}`)
      : new URL(`${endpoint.protocol}//${bucket}.${endpoint.host}${base}${keyPath || '/'}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url;
  };

  const send = (operation: string, method: string, url: URL, body?: Buffer | StreamedBody, payloadHash = EMPTY_PAYLOAD_HASH, extra: Record<string, string> = {}): Promise<Response> => {
    const headers = signRequest({ method, url, headers: { ...extra, ...(body ? { 'content-length': String(body.length) } : {}) }, payloadHash }, credentials, region);
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = transport.request(url, { method, headers, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (err) => reject(new S3RequestError(`S3 ${operation} on ${where}: the response broke off (${err.message})`, undefined, undefined, err)));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)));
      req.on('error', (err: NodeJS.ErrnoException) => reject(new S3RequestError(`S3 ${operation} on ${where} could not be sent: ${err.code ?? err.message}`, undefined, undefined, err)));
      if (body === undefined || Buffer.isBuffer(body)) {
        req.end(body);
        return;
      }
      const stream = body.open();
      stream.on('error', (err) => req.destroy(err));
      stream.pipe(req);
    });
  };

  const failure = (operation: string, res: Response): S3RequestError => {
    const xml = res.body.toString('utf8');
    const code = xmlText(xml, 'Code');
    const message = xmlText(xml, 'Message');
    const hint = code ? HINTS[code] : undefined;
    const detail = [code, message].filter((x) => x !== undefined && x !== '').join(': ');
    return new S3RequestError(`S3 ${operation} on ${where} failed: HTTP ${res.status}${detail ? ` ${detail}` : ''}${hint ? ` (${hint})` : ''}`, res.status, code);
  };

  return {
    async putObject(key, body, sha256Hex, contentType) {
      const res = await send('PutObject', 'PUT', urlOf(key), body, sha256Hex, contentType ? { 'content-type': contentType } : {});
      if (res.status !== 200) throw failure('PutObject', res);
    },
    async getObject(key) {
      const res = await send('GetObject', 'GET', urlOf(key));
      if (res.status === 404) return undefined;
      if (res.status !== 200) throw failure('GetObject', res);
      return res.body;
    },
    async headObject(key) {
      const res = await send('HeadObject', 'HEAD', urlOf(key));
      if (res.status === 404) return undefined;
      if (res.status !== 200) throw failure('HeadObject', res);
      return { size: Number(res.headers['content-length'] ?? 0), lastModified: new Date(String(res.headers['last-modified'] ?? 0)) };
    },
    async deleteObject(key) {
      const res = await send('DeleteObject', 'DELETE', urlOf(key));
      if (res.status !== 204 && res.status !== 200 && res.status !== 404) throw failure('DeleteObject', res);
    },
    async listObjects(prefix, limit = Number.POSITIVE_INFINITY) {
      const objects: S3ObjectInfo[] = [];
      let token: string | undefined;
      do {
        const query: Record<string, string> = { 'list-type': '2', prefix, 'max-keys': String(Math.min(1000, limit - objects.length)) };
        if (token) query['continuation-token'] = token;
        const res = await send('ListObjectsV2', 'GET', urlOf('', query));
        if (res.status !== 200) throw failure('ListObjectsV2', res);
        const xml = res.body.toString('utf8');
        for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
          const entry = m[1] ?? '';
          const key = xmlText(entry, 'Key');
          if (key === undefined) continue;
          objects.push({ key, lastModified: new Date(xmlText(entry, 'LastModified') ?? 0), size: Number(xmlText(entry, 'Size') ?? 0) });
        }
        token = xmlText(xml, 'IsTruncated') === 'true' ? xmlText(xml, 'NextContinuationToken') : undefined;
      } while (token && objects.length < limit);
      return objects;
    },
  };
}
