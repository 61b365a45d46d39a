/**
 * Local account passwords: scrypt (RFC 7914) through node:crypto, a random 16-byte salt per
 * password, the cost parameters stored with the hash so they can be raised later without
 * invalidating existing hashes:
 *
 *   scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>
 *
 * Verification is constant-time in the hash comparison, and a sign-in for an unknown email runs
 * the same scrypt work against a dummy hash, so the timing does not tell which emails exist.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** N = 2^15, r = 8, p = 1: 32 MiB of memory per hash; raise N here and new hashes use it (old ones keep theirs). */
export const SCRYPT_N = 2 ** 15;
export const SCRYPT_R = 8;
export const SCRYPT_P = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;
export const MAX_EMAIL_LENGTH = 254;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: n, r, p, maxmem: 256 * n * r * p + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P);
  return ['scrypt', SCRYPT_N, SCRYPT_R, SCRYPT_P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![n, r, p].every((v) => Number.isInteger(v) && v > 0) || n > 2 ** 20 || r > 32 || p > 16) return undefined;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const key = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length < 8 || key.length !== KEY_LENGTH) return undefined;
  return { n, r, p, salt, key };
}

/** true when `password` produces `stored` (a hash made by hashPassword). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || password.length > MAX_PASSWORD_LENGTH) return false;
  const key = await derive(password, parsed.salt, parsed.n, parsed.r, parsed.p);
  return timingSafeEqual(key, parsed.key);
}

let dummy: Promise<string> | undefined;

/** The same work as a real verification, for an unknown email; always false. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password.slice(0, MAX_PASSWORD_LENGTH), await dummy);
  return false;
}

/** Emails are compared case-insensitively: kept trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A description of what is wrong with the email, or undefined when it is acceptable. */
export function emailProblem(email: string): string | undefined {
  if (email.length === 0) return 'the email is empty';
  if (email.length > MAX_EMAIL_LENGTH) return `the email is longer than ${MAX_EMAIL_LENGTH} characters`;
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) return `'${email}' is not an email address (name@domain)`;
  return undefined;
}

export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `the password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `the password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}
