/**
 * A real S3-compatible server on loopback for tests: s3rver (a dev dependency), on a free port,
 * keeping its objects in a temp directory, with one bucket. Its only account is S3RVER/S3RVER.
 *
 * What it checks: an unknown access key id is refused (InvalidAccessKeyId). What it does not:
 * s3rver 3.7 does not compute Signature Version 4 (lib/middleware/authentication.js: "Signature
 * version 4 calculation is unimplemented"), so a wrong secret with the right key id is accepted;
 * folio's signatures are checked against the AWS documentation's examples instead
 * (test/blobs/sigv4.test.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

interface S3rverServer {
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

export async function startS3(bucket = 'folio-test'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    env: (prefix = '') => ({
      FOLIO_BLOB_URL: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
      FOLIO_BLOB_S3_ENDPOINT: endpoint,
      FOLIO_BLOB_S3_ACCESS_KEY_ID: 'S3RVER',
      FOLIO_BLOB_S3_SECRET_ACCESS_KEY: 'S3RVER',
    }),
    async stop() {
      await server.close().catch(() => undefined);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
