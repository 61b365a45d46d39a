/**
 * AWS Signature Version 4 for S3 requests, in the Authorization header: Amazon S3 API Reference,
 * "Authenticating Requests: Using the Authorization Header (AWS Signature Version 4)" and its
 * "Signature Calculations for the Authorization Header: Transferring Payload in a Single Chunk"
 * (docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html), whose GET Object
 * example is a test vector in test/blobs/sigv4.test.ts.
 *
 *   CanonicalRequest = Method \n CanonicalURI \n CanonicalQueryString \n CanonicalHeaders \n
 *                      SignedHeaders \n HexEncode(SHA256(payload))
 *   StringToSign     = "AWS4-HMAC-SHA256" \n x-amz-date \n yyyymmdd/region/s3/aws4_request \n
 *                      HexEncode(SHA256(CanonicalRequest))
 *   SigningKey       = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, yyyymmdd), region), "s3"), "aws4_request")
 *   Signature        = HexEncode(HMAC(SigningKey, StringToSign))
 *
 * The secret key is used here only: it never reaches a header, a URL, a log line or an error.
 */
import crypto from 'node:crypto';

export interface S3Credentials {
  accessKeyId: string;
  /** Never logged, never in an error message. */
  secretAccessKey: string;
  /** Temporary credentials (STS): sent as x-amz-security-token. */
  sessionToken?: string;
}

export interface SignableRequest {
  method: string;
  url: URL;
  /** Headers to send and sign (names in any case); `host` is added from the URL when absent. */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body, or UNSIGNED-PAYLOAD. */
  payloadHash: string;
}

export const EMPTY_PAYLOAD_HASH = crypto.createHash('sha256').digest('hex');
const ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 's3';

/** RFC 3986 percent-encoding of everything but the unreserved characters (SigV4 "UriEncode"). */
export function uriEncode(value: string, encodeSlash = true): string {
  const encoded = encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return encodeSlash ? encoded : encoded.replace(/%2F/g, '/');
}

const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac('sha256', key).update(data, 'utf8').digest();
const sha256Hex = (data: string) => crypto.createHash('sha256').update(data, 'utf8').digest('hex');

/** 20130524T000000Z */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function canonicalQuery(url: URL): string {
  const pairs = [...url.searchParams.entries()].map(([k, v]) => [uriEncode(k), uriEncode(v)] as const);
  pairs.sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/**
 * The headers to send: the request's own plus `host`, `x-amz-date`, `x-amz-content-sha256`,
 * `x-amz-security-token` (temporary credentials) and `authorization`.
 */
export function signRequest(request: SignableRequest, credentials: S3Credentials, region: string, date: Date = new Date()): Record<string, string> {
  const stamp = amzDate(date);
  const day = stamp.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  headers.host ??= request.url.host;
  headers['x-amz-date'] = stamp;
  headers['x-amz-content-sha256'] = request.payloadHash;
  if (credentials.sessionToken) headers['x-amz-security-token'] = credentials.sessionToken;

  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${(headers[n] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  // S3 encodes each path segment once (other services encode twice).
  const canonicalUri = request.url.pathname.split('/').map((segment) => uriEncode(decodeURIComponent(segment))).join('/');
  const canonicalRequest = [request.method.toUpperCase(), canonicalUri, canonicalQuery(request.url), canonicalHeaders, signedHeaders, request.payloadHash].join('\n');
  const scope = `${day}/${region}/${SERVICE}/aws4_request`;
  const stringToSign = [ALGORITHM, stamp, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), region), SERVICE), 'aws4_request');
  const signature = crypto.createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  headers.authorization = `${ALGORITHM} Credential=${credentials.accessKeyId}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`;
  return headers;
}
