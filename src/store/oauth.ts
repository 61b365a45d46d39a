/**
 * The OAuth part of the store (migration 3): token signing keys and grants. The interfaces are
 * auth's (`SigningKeyStore` in auth/signing-keys.ts, `OAuthGrantDirectory` in auth/grants.ts);
 * this file is their SQLite implementation, a function of the open database handle.
 *
 * Signing keys are kept as JWK JSON, the private part included: protect DATA_DIR accordingly.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { JWK } from 'jose';
import { isMcpResourcePath, type NewOAuthGrant, type OAuthGrant, type OAuthGrantDirectory } from '../../auth/grants.ts';
import { SIGNING_ALG, type SigningKeyStore, type StoredSigningKey } from '../../auth/signing-keys.ts';

export interface OAuthStore extends SigningKeyStore, OAuthGrantDirectory {}

export interface SigningKeyRow {
  kid: string;
  alg: string;
  private_jwk: string;
  public_jwk: string;
  created_at: string;
  retired_at: string | null;
}

export interface GrantRow {
  id: string;
  client_id: string;
  user_id: string | null;
  team_id: string;
  team_name: string;
  scope: string;
  resource: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function parseJwk(text: string): JWK {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('a stored signing key is not a JWK object');
  return value as JWK;
}

export function toSigningKey(row: SigningKeyRow): StoredSigningKey {
  if (row.alg !== SIGNING_ALG) throw new Error(`signing key ${row.kid} has unsupported alg ${row.alg}`);
  return {
    kid: row.kid,
    alg: SIGNING_ALG,
    privateJwk: parseJwk(row.private_jwk),
    publicJwk: parseJwk(row.public_jwk),
    createdAt: row.created_at,
    retiredAt: row.retired_at,
  };
}

export function toGrant(row: GrantRow): OAuthGrant {
  if (!isMcpResourcePath(row.resource)) throw new Error(`grant ${row.id} has an unknown resource ${row.resource}`);
  return {
    id: row.id,
    clientId: row.client_id,
    userId: row.user_id,
    teamId: row.team_id,
    teamName: row.team_name,
    scope: row.scope,
    resource: row.resource,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

const GRANT_SELECT = `SELECT g.id, g.client_id, g.user_id, g.team_id, t.name AS team_name, g.scope, g.resource,
    g.created_at, g.last_used_at, g.revoked_at
  FROM oauth_grants g JOIN teams t ON t.id = g.team_id`;

/** Inserts a grant and returns it, on the caller's transaction when there is one (code redemption, store/oauth-tokens.ts). */
export function insertOAuthGrant(db: Database.Database): (grant: NewOAuthGrant) => OAuthGrant {
  const insert = db.prepare('INSERT INTO oauth_grants (id, client_id, user_id, team_id, scope, resource, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const byId = db.prepare<[string], GrantRow>(`${GRANT_SELECT} WHERE g.id = ?`);
  return (grant) => {
    const id = `grant_${randomBytes(12).toString('hex')}`;
    insert.run(id, grant.clientId, grant.userId ?? null, grant.teamId, grant.scope, grant.resource, new Date().toISOString());
    const row = byId.get(id);
    if (!row) throw new Error('grant insert did not persist');
    return toGrant(row);
  };
}

export function sqliteOAuthStore(db: Database.Database): OAuthStore {
  const grantSelect = GRANT_SELECT;
  const insertGrant = insertOAuthGrant(db);
  const q = {
    liveKeys: db.prepare<[], SigningKeyRow>(
      'SELECT kid, alg, private_jwk, public_jwk, created_at, retired_at FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, rowid DESC',
    ),
    insertKey: db.prepare(
      'INSERT INTO signing_keys (kid, alg, private_jwk, public_jwk, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(kid) DO NOTHING',
    ),
    retireKey: db.prepare('UPDATE signing_keys SET retired_at = COALESCE(retired_at, ?) WHERE kid = ?'),
    grantById: db.prepare<[string], GrantRow>(`${grantSelect} WHERE g.id = ?`),
    allGrants: db.prepare<[], GrantRow>(`${grantSelect} ORDER BY g.created_at, g.rowid`),
    revokeGrant: db.prepare('UPDATE oauth_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    touchGrant: db.prepare('UPDATE oauth_grants SET last_used_at = ? WHERE id = ?'),
  };

  const addKey = db.transaction((key: StoredSigningKey, onlyIfNone: boolean): StoredSigningKey[] => {
    if (!onlyIfNone || q.liveKeys.all().length === 0) {
      q.insertKey.run(key.kid, key.alg, JSON.stringify(key.privateJwk), JSON.stringify(key.publicJwk), key.createdAt);
    }
    return q.liveKeys.all().map(toSigningKey);
  });

  return {
    async listLiveSigningKeys() {
      return q.liveKeys.all().map(toSigningKey);
    },
    async addSigningKey(key, { onlyIfNone }) {
      // IMMEDIATE: the server and the CLI starting on a fresh store agree on one first key.
      return addKey.immediate(key, onlyIfNone);
    },
    async retireSigningKey(kid, at) {
      return q.retireKey.run(at.toISOString(), kid).changes > 0;
    },

    async createOAuthGrant(grant: NewOAuthGrant) {
      return insertGrant(grant);
    },
    async getOAuthGrant(id) {
      const row = q.grantById.get(id);
      return row ? toGrant(row) : undefined;
    },
    async listOAuthGrants() {
      return q.allGrants.all().map(toGrant);
    },
    async revokeOAuthGrant(id, at) {
      q.revokeGrant.run(at.toISOString(), id);
      const row = q.grantById.get(id);
      return row ? toGrant(row) : undefined;
    },
    async touchOAuthGrant(id, at) {
      q.touchGrant.run(at.toISOString(), id);
    },
  };
}
