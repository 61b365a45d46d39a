/**
 * The two secrets of an upload (docs/uploads.md): the `uploadRef` a parse takes, and the
 * capability token in the upload URL. Both are 32 random bytes, base64url; they are unrelated,
 * so holding the URL does not let anyone parse, and holding the ref does not let anyone upload.
 * The store keeps their SHA-256 hashes only; the ref is also kept sealed (AES-256-GCM) under a
 * key derived from the token, for the PUT's answer.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

export const UPLOAD_REF_PREFIX = 'upl_';
const SECRET_BYTES = 32;
/** 32 bytes of base64url, unpadded: 43 characters. */
const B64URL_43 = '[A-Za-z0-9_-]{43}';
const REF_PATTERN = new RegExp(`^${UPLOAD_REF_PREFIX}${B64URL_43}$`);
const TOKEN_PATTERN = new RegExp(`^${B64URL_43}$`);
const SEAL_INFO = 'folio upload ref seal v1';

export function newUploadRef(): string {
  return UPLOAD_REF_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

export function newUploadToken(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** A random storage key (never derived from either secret). */
export function newStorageKey(): string {
  return randomBytes(16).toString('hex');
}

export function looksLikeUploadRef(value: string): boolean {
  return REF_PATTERN.test(value);
}

export function looksLikeUploadToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function sealKey(token: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(token, 'utf8'), Buffer.alloc(0), SEAL_INFO, 32));
}

/** iv ‖ ciphertext ‖ tag, base64url. */
export function sealRef(token: string, ref: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(token), iv);
  const body = Buffer.concat([cipher.update(ref, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The ref, or undefined when the seal does not open with this token. */
export function unsealRef(token: string, sealed: string): string | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const iv = raw.subarray(0, 12);
    const tag = raw.subarray(raw.length - 16);
    const decipher = createDecipheriv('aes-256-gcm', sealKey(token), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
