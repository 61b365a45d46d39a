/**
 * Webhook signatures: `X-Firecrawl-Signature: sha256=<hex>`, the HMAC-SHA256 of the raw request
 * body under the server's webhook secret (Firecrawl's header and format, so receivers written
 * for Firecrawl verify folio's deliveries unchanged).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const SIGNATURE_HEADER = 'x-firecrawl-signature';
/** The file under DATA_DIR holding the generated secret when FOLIO_WEBHOOK_SECRET is not set. */
export const SECRET_FILE = 'webhook-secret';

export function signWebhookBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** What a receiver does: recompute over the raw body and compare in constant time. */
export function verifyWebhookSignature(secret: string, body: string | Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhookBody(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * The configured secret, else the one generated at the first start and kept in
 * DATA_DIR/webhook-secret (mode 0600), so receivers keep verifying across restarts.
 */
export function loadWebhookSecret(dataDir: string, configured: string | undefined): string {
  if (configured) return configured;
  const file = path.join(dataDir, SECRET_FILE);
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing) return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    // Another process on the same DATA_DIR wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw err;
  }
}
