/**
 * The keys folio signs its OAuth access tokens with (DESIGN.md "Auth decisions": JWTs signed with
 * a persisted key, jose). ES256 (RFC 7518 §3.4): a P-256 key pair generated on first use and kept
 * in the store, so tokens issued before a restart still verify after it.
 *
 * Several keys may be live at once: the newest signs, every live key verifies, so a key can be
 * rotated (add a new one, retire the old one once its tokens have expired). A retired key neither
 * signs nor verifies and leaves the published JWKS. `kid` is the key's RFC 7638 thumbprint.
 *
 * This module depends on no store: it states what it needs from one (`SigningKeyStore`).
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';

export const SIGNING_ALG = 'ES256';
export type SigningAlg = typeof SIGNING_ALG;

/** A key as the store keeps it. The private JWK never leaves the store and this module. */
export interface StoredSigningKey {
  kid: string;
  alg: SigningAlg;
  privateJwk: JWK;
  publicJwk: JWK;
  /** ISO 8601. */
  createdAt: string;
  retiredAt: string | null;
}

export interface SigningKeyStore {
  /** Keys not retired, newest first. */
  listLiveSigningKeys(): Promise<StoredSigningKey[]>;
  /**
   * Stores a key. With `onlyIfNone`, stores it only when no live key exists (atomically, so that
   * two processes starting on a fresh store end up signing with the same key). Returns the live
   * keys afterwards, newest first.
   */
  addSigningKey(key: StoredSigningKey, options: { onlyIfNone: boolean }): Promise<StoredSigningKey[]>;
  /** Marks a key retired (idempotent); false when no key has this kid. */
  retireSigningKey(kid: string, at: Date): Promise<boolean>;
}

/** RFC 7517 §5: the public keys, as published at `/.well-known/jwks.json`. */
export interface PublicJwks {
  keys: JWK[];
}

export interface SigningKeys {
  /** The key new tokens are signed with (generated and stored on first use). */
  current(): Promise<{ kid: string; alg: SigningAlg; key: CryptoKey }>;
  /** The public key with this kid, or undefined when it is unknown or retired. */
  verificationKey(kid: string): Promise<CryptoKey | undefined>;
  /** The live public keys (generating the first one when there is none). */
  jwks(): Promise<PublicJwks>;
  /** Generates a new key that signs from now on; the previous ones keep verifying. Returns its kid. */
  rotate(): Promise<string>;
  /** Retires a key: tokens signed with it stop verifying at once. False when the kid is unknown. */
  retire(kid: string): Promise<boolean>;
}

/** The live keys are re-read from the store this often: another process (the CLI) may have rotated or retired one. */
export const RELOAD_INTERVAL_MS = 5_000;

const PUBLIC_MEMBERS = ['kty', 'crv', 'x', 'y'] as const;

function publicPart(jwk: JWK): JWK {
  const out: JWK = {};
  for (const m of PUBLIC_MEMBERS) if (jwk[m] !== undefined) out[m] = jwk[m];
  return out;
}

/** A new ES256 key pair in the stored shape, `kid` = its RFC 7638 thumbprint. */
export async function generateSigningKey(now: Date = new Date()): Promise<StoredSigningKey> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const publicJwk = publicPart(privateJwk);
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  return { kid, alg: SIGNING_ALG, privateJwk: { ...privateJwk, kid, alg: SIGNING_ALG }, publicJwk: { ...publicJwk, kid, alg: SIGNING_ALG, use: 'sig' }, createdAt: now.toISOString(), retiredAt: null };
}

async function importKey(jwk: JWK): Promise<CryptoKey> {
  const key = await importJWK(jwk, SIGNING_ALG);
  if (key instanceof Uint8Array) throw new Error('a signing key in the store is not an EC key');
  return key;
}

export function createSigningKeys(store: SigningKeyStore, options: { now?: () => Date } = {}): SigningKeys {
  const now = options.now ?? (() => new Date());
  let live: StoredSigningKey[] | undefined;
  let loadedAt = 0;
  const imported = new Map<string, Promise<CryptoKey>>();

  const imports = (jwk: JWK, cacheKey: string): Promise<CryptoKey> => {
    let p = imported.get(cacheKey);
    if (!p) {
      p = importKey(jwk);
      imported.set(cacheKey, p);
    }
    return p;
  };

  const reload = async (): Promise<StoredSigningKey[]> => {
    live = await store.listLiveSigningKeys();
    loadedAt = now().getTime();
    return live;
  };

  let firstKey: Promise<StoredSigningKey[]> | undefined;
  const liveKeys = async (): Promise<StoredSigningKey[]> => {
    const keys = live !== undefined && now().getTime() - loadedAt < RELOAD_INTERVAL_MS ? live : await reload();
    if (keys.length > 0) return keys;
    // First use on an empty store: one generation at a time in this process.
    firstKey ??= generateSigningKey(now())
      .then((key) => store.addSigningKey(key, { onlyIfNone: true }))
      .finally(() => {
        firstKey = undefined;
      });
    live = await firstKey;
    loadedAt = now().getTime();
    return live;
  };

  return {
    async current() {
      const [newest] = await liveKeys();
      if (!newest) throw new Error('no signing key could be stored');
      return { kid: newest.kid, alg: newest.alg, key: await imports(newest.privateJwk, `private:${newest.kid}`) };
    },
    async verificationKey(kid) {
      const found = (await liveKeys()).find((k) => k.kid === kid);
      return found ? imports(found.publicJwk, `public:${found.kid}`) : undefined;
    },
    async jwks() {
      return { keys: (await liveKeys()).map((k) => ({ ...k.publicJwk })) };
    },
    async rotate() {
      const key = await generateSigningKey(now());
      live = await store.addSigningKey(key, { onlyIfNone: false });
      loadedAt = now().getTime();
      return key.kid;
    },
    async retire(kid) {
      const found = await store.retireSigningKey(kid, now());
      await reload();
      imported.delete(`private:${kid}`);
      imported.delete(`public:${kid}`);
      return found;
    },
  };
}
