/**
 * folio's Signature Version 4 against the worked examples of the Amazon S3 API Reference,
 * "Signature Calculations for the Authorization Header: Transferring Payload in a Single Chunk"
 * (sig-v4-header-based-auth.html): the example credentials, bucket `examplebucket`, 24 May 2013.
 * s3rver does not verify V4 signatures (test/helpers/s3.ts), so these are what proves them.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signRequest } from '../../src/blobs/index.ts';

const credentials = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const date = new Date('2013-05-24T00:00:00Z');
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const sign = (method: string, url: string, headers: Record<string, string>, payloadHash: string) =>
  signRequest({ method, url: new URL(url), headers, payloadHash }, credentials, 'us-east-1', date).authorization;
const credential = 'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request';

describe('Signature Version 4 (the AWS documentation examples)', () => {
  it('GET Object with a Range header', () => {
    expect(sign('GET', 'https://examplebucket.s3.amazonaws.com/test.txt', { range: 'bytes=0-9' }, EMPTY)).toBe(
      `${credential},SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41`,
    );
  });

  it('PUT Object: a signed payload, a key with a character to encode ($), a Date and a storage class header', () => {
    const body = 'Welcome to Amazon S3.';
    const hash = crypto.createHash('sha256').update(body).digest('hex');
    expect(hash).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    expect(sign('PUT', 'https://examplebucket.s3.amazonaws.com/test$file.text', { date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' }, hash)).toBe(
      `${credential},SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd`,
    );
  });

  it('GET Bucket lifecycle: a query parameter without a value', () => {
    expect(sign('GET', 'https://examplebucket.s3.amazonaws.com/?lifecycle', {}, EMPTY)).toBe(
      `${credential},SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543`,
    );
  });

  it('GET Bucket (list objects): query parameters sorted', () => {
    expect(sign('GET', 'https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2', {}, EMPTY)).toBe(
      `${credential},SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7`,
    );
  });

  it('a session token is sent and signed; the secret appears in no header', () => {
    const headers = signRequest({ method: 'GET', url: new URL('http://127.0.0.1:9000/b/k'), headers: {}, payloadHash: EMPTY }, { ...credentials, sessionToken: 'token-1' }, 'us-east-1', date);
    expect(headers['x-amz-security-token']).toBe('token-1');
    expect(headers.authorization).toContain('x-amz-security-token');
    expect(JSON.stringify(headers)).not.toContain(credentials.secretAccessKey);
    expect(headers.host).toBe('127.0.0.1:9000');
  });
});
