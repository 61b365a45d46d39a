/**
 * A real S3-compatible server on loopback for tests: s3rver (a dev dependency), on a free port,
 * keeping its objects in a temp directory, with one bucket. Its only account's key id is S3RVER.
 *
 * s3rver checks the access key id (an unknown one is InvalidAccessKeyId) but does not compute
 * Signature Version 4 (lib/middleware/authentication.js: "Signature version 4 calculation is
 * unimplemented"): a wrong secret would pass. So a first middleware checks every V4 signature
 * against `secretAccessKey` before s3rver sees the request, recomputed from what arrived on the
 * wire (method, path, query, the signed headers) with folio's signer, itself checked against the
 * AWS documentation's examples (test/blobs/sigv4.test.ts); a mismatch is answered as S3 does,
 * 403 SignatureDoesNotMatch. That proves the requests folio sends are the ones it signed, and
 * makes a wrong secret fail as on AWS or MinIO.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { signRequest } from '../../src/blobs/index.ts';

interface KoaContext {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverServer {
  /** Koa's middleware list: the verifier goes first. */
  middleware: Middleware[];
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: { port: number; address: string; silent: boolean; directory: string; configureBuckets: { name: string }[] }) => S3rverServer;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The folio variables of a blob store in this bucket under `prefix`. */
  env(prefix?: string): Record<string, string>;
  stop(): Promise<void>;
}

const SIGNATURE_DOES_NOT_MATCH =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided. Check your key and signing method.</Message></Error>';

/** Checks Authorization: AWS4-HMAC-SHA256 headers against the secret of their key id. */
function verifySignatureV4(secrets: ReadonlyMap<string, string>): Middleware {
  return async (ctx, next) => {
    const header = (name: string) => {
      const v = ctx.headers[name];
      return Array.isArray(v) ? v.join(',') : (v ?? '');
    };
    const authorization = header('authorization');
    if (authorization.startsWith('AWS4-HMAC-SHA256 ')) {
      const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request,SignedHeaders=([a-z0-9;-]+),Signature=[0-9a-f]{64}$/.exec(authorization);
      const stamp = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(header('x-amz-date'));
      const secret = m ? secrets.get(m[1] ?? '') : undefined;
      // An unknown key id is s3rver's to refuse (InvalidAccessKeyId), as S3 does.
      if (m && secret === undefined) {
        await next();
        return;
      }
      let valid = false;
      if (m && stamp && secret !== undefined && m[2] === header('x-amz-date').slice(0, 8)) {
        const date = new Date(`${stamp[1]}-${stamp[2]}-${stamp[3]}T${stamp[4]}:${stamp[5]}:${stamp[6]}Z`);
        const signed = (m[4] ?? '').split(';');
        const headers = Object.fromEntries(signed.map((name) => [name, header(name)]));
        const token = header('x-amz-security-token');
        const expected = signRequest(
          { method: ctx.method, url: new URL(ctx.url, `http://${header('host')}`), headers, payloadHash: header('x-amz-content-sha256') },
          { accessKeyId: m[1] ?? '', secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) },
          m[3] ?? '',
          date,
        ).authorization;
        valid = expected === authorization;
      }
      if (!valid) {
        ctx.status = 403;
        ctx.type = 'application/xml';
        ctx.body = SIGNATURE_DOES_NOT_MATCH;
        return;
      }
    }
    await next();
  };
}

export async function startS3(bucket = 'folio-test', secretAccessKey = 'S3RVER'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  server.middleware.unshift(verifySignatureV4(new Map([['S3RVER', secretAccessKey]])));
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey,
    env: (prefix = '') => ({
      FOLIO_BLOB_URL: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
      FOLIO_BLOB_S3_ENDPOINT: endpoint,
      FOLIO_BLOB_S3_ACCESS_KEY_ID: 'S3RVER',
      FOLIO_BLOB_S3_SECRET_ACCESS_KEY: secretAccessKey,
    }),
    async stop() {
      await server.close().catch(() => undefined);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
