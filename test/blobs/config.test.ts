/**
 * FOLIO_BLOB_URL and the S3 variables in src/config.ts: the three backends, which credentials win,
 * and refusals that say what to set without echoing a secret.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/folio-blob-config', ...env });
const refusal = (env: Record<string, string>): string => {
  try {
    load(env);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('FOLIO_BLOB_URL', () => {
  it('unset: the local disk', () => {
    expect(load({}).blob).toEqual({ kind: 'local' });
  });

  it('s3:// on AWS with the standard AWS_* variables: virtual-hosted, regional endpoint', () => {
    const blob = load({ FOLIO_BLOB_URL: 's3://my-bucket/folio/prod/', FOLIO_BLOB_S3_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIA1', AWS_SECRET_ACCESS_KEY: 'secret-1', AWS_SESSION_TOKEN: 'session-1' }).blob;
    expect(blob).toEqual({
      kind: 's3',
      bucket: 'my-bucket',
      prefix: 'folio/prod/',
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      region: 'eu-west-1',
      pathStyle: false,
      credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'secret-1', sessionToken: 'session-1' },
    });
  });

  it('s3:// on MinIO: folio’s own keys win over AWS_* (none of them mixed), path-style by default, overridable', () => {
    const env = { FOLIO_BLOB_URL: 's3://uploads', FOLIO_BLOB_S3_ENDPOINT: 'http://minio:9000/', FOLIO_BLOB_S3_ACCESS_KEY_ID: 'folio', FOLIO_BLOB_S3_SECRET_ACCESS_KEY: 'minio-secret', AWS_ACCESS_KEY_ID: 'AKIA1', AWS_SECRET_ACCESS_KEY: 'aws-secret', AWS_SESSION_TOKEN: 'aws-session' };
    expect(load(env).blob).toEqual({ kind: 's3', bucket: 'uploads', prefix: '', endpoint: 'http://minio:9000', region: 'us-east-1', pathStyle: true, credentials: { accessKeyId: 'folio', secretAccessKey: 'minio-secret' } });
    expect(load({ ...env, FOLIO_BLOB_S3_PATH_STYLE: 'off' }).blob).toMatchObject({ pathStyle: false });
  });

  it('postgres: the DATABASE_URL database, which it needs', () => {
    expect(load({ FOLIO_BLOB_URL: 'postgres', DATABASE_URL: 'postgres://folio@db:5432/folio' }).blob).toEqual({ kind: 'postgres', databaseUrl: 'postgres://folio@db:5432/folio' });
    expect(refusal({ FOLIO_BLOB_URL: 'postgres' })).toMatch(/FOLIO_BLOB_URL: `postgres`.*set DATABASE_URL/);
  });

  it('refuses what it cannot use, saying what to set and echoing no secret', () => {
    expect(refusal({ FOLIO_BLOB_URL: 'https://bucket.example.com' })).toMatch(/FOLIO_BLOB_URL: unset, `postgres`, or `s3:\/\/bucket`/);
    expect(refusal({ FOLIO_BLOB_URL: 's3://UPPER' })).toMatch(/FOLIO_BLOB_URL/);
    expect(refusal({ FOLIO_BLOB_URL: 's3://bucket' })).toMatch(/needs credentials: FOLIO_BLOB_S3_ACCESS_KEY_ID and FOLIO_BLOB_S3_SECRET_ACCESS_KEY \(or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY\)/);
    const leaked = refusal({ FOLIO_BLOB_URL: 's3://bucket', FOLIO_BLOB_S3_ENDPOINT: 'http://user:hunter2-secret@minio:9000', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' });
    expect(leaked).toMatch(/FOLIO_BLOB_S3_ENDPOINT: the base URL only/);
    expect(leaked).not.toContain('hunter2');
    const half = refusal({ FOLIO_BLOB_URL: 's3://bucket', FOLIO_BLOB_S3_SECRET_ACCESS_KEY: 'half-secret', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' });
    expect(half).toMatch(/FOLIO_BLOB_S3_ACCESS_KEY_ID: required with FOLIO_BLOB_S3_SECRET_ACCESS_KEY/);
    expect(half).not.toContain('half-secret');
    expect(refusal({ FOLIO_BLOB_URL: 's3://bucket', FOLIO_BLOB_S3_REGION: 'Not A Region', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' })).toMatch(/FOLIO_BLOB_S3_REGION/);
  });
});
