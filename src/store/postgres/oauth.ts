/**
 * OAuth on PostgreSQL: signing keys and grants (store/oauth.ts), registered clients
 * (store/oauth-clients.ts), authorization codes and refresh tokens (store/oauth-tokens.ts).
 * Redeeming a code and rotating a refresh token are one conditional UPDATE each: PostgreSQL
 * re-checks the WHERE clause on the locked row, so of two instances racing, one wins.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { OAuthClientStore } from '../../../auth/clients.ts';
import type { NewOAuthGrant, OAuthGrant } from '../../../auth/grants.ts';
import { toClient, type ClientRow } from '../oauth-clients.ts';
import { toCode, toRefresh, type CodeRow, type OAuthTokenStore, type RefreshRow } from '../oauth-tokens.ts';
import { toGrant, toSigningKey, type GrantRow, type OAuthStore, type SigningKeyRow } from '../oauth.ts';
import { changes, lockFor, row, rows, transaction, type Queryable } from './db.ts';

const GRANT_SELECT = `SELECT g.id, g.client_id, g.user_id, g.team_id, t.name AS team_name, g.scope, g.resource,
    g.created_at, g.last_used_at, g.revoked_at
  FROM oauth_grants g JOIN teams t ON t.id = g.team_id`;

const liveKeys = async (db: Queryable) =>
  (await rows<SigningKeyRow>(db, 'SELECT kid, alg, private_jwk, public_jwk, created_at, retired_at FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, seq DESC')).map(
    toSigningKey,
  );

async function insertGrant(db: Queryable, grant: NewOAuthGrant): Promise<OAuthGrant> {
  const id = `grant_${randomBytes(12).toString('hex')}`;
  await db.query('INSERT INTO oauth_grants (id, client_id, user_id, team_id, scope, resource, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
    id,
    grant.clientId,
    grant.userId ?? null,
    grant.teamId,
    grant.scope,
    grant.resource,
    new Date().toISOString(),
  ]);
  const r = await row<GrantRow>(db, `${GRANT_SELECT} WHERE g.id = $1`, [id]);
  if (!r) throw new Error('grant insert did not persist');
  return toGrant(r);
}

export function postgresOAuthStore(pool: Pool): OAuthStore {
  const grantById = async (id: string) => row<GrantRow>(pool, `${GRANT_SELECT} WHERE g.id = $1`, [id]);
  return {
    listLiveSigningKeys: () => liveKeys(pool),
    async addSigningKey(key, { onlyIfNone }) {
      // Under one lock: instances starting on a fresh database agree on one first key.
      return transaction(pool, async (client) => {
        await lockFor(client, 'folio:signing_keys');
        if (!onlyIfNone || (await liveKeys(client)).length === 0) {
          await client.query('INSERT INTO signing_keys (kid, alg, private_jwk, public_jwk, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (kid) DO NOTHING', [
            key.kid,
            key.alg,
            JSON.stringify(key.privateJwk),
            JSON.stringify(key.publicJwk),
            key.createdAt,
          ]);
        }
        return liveKeys(client);
      });
    },
    async retireSigningKey(kid, at) {
      return (await changes(pool, 'UPDATE signing_keys SET retired_at = COALESCE(retired_at, $1) WHERE kid = $2', [at.toISOString(), kid])) > 0;
    },
    createOAuthGrant: (grant) => insertGrant(pool, grant),
    async getOAuthGrant(id) {
      const r = await grantById(id);
      return r ? toGrant(r) : undefined;
    },
    async listOAuthGrants() {
      return (await rows<GrantRow>(pool, `${GRANT_SELECT} ORDER BY g.created_at, g.seq`)).map(toGrant);
    },
    async revokeOAuthGrant(id, at) {
      await pool.query('UPDATE oauth_grants SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at.toISOString(), id]);
      const r = await grantById(id);
      return r ? toGrant(r) : undefined;
    },
    async touchOAuthGrant(id, at) {
      await pool.query('UPDATE oauth_grants SET last_used_at = $1 WHERE id = $2', [at.toISOString(), id]);
    },
  };
}

export function postgresOAuthClientStore(pool: Pool): OAuthClientStore {
  const get = async (id: string) => row<ClientRow>(pool, 'SELECT id, name, redirect_uris, metadata, created_at FROM oauth_clients WHERE id = $1', [id]);
  return {
    async createOAuthClient(client) {
      await pool.query("INSERT INTO oauth_clients (id, kind, name, redirect_uris, metadata, created_at) VALUES ($1, 'dcr', $2, $3, $4, $5)", [
        client.id,
        client.name,
        JSON.stringify(client.redirectUris),
        JSON.stringify(client.metadata),
        client.createdAt.toISOString(),
      ]);
      const r = await get(client.id);
      if (!r) throw new Error('the registered client was not stored');
      return toClient(r);
    },
    async getOAuthClient(id) {
      const r = await get(id);
      return r ? toClient(r) : undefined;
    },
  };
}

export function postgresOAuthTokenStore(pool: Pool): OAuthTokenStore {
  return {
    async insertAuthorizationCode(c) {
      await pool.query(
        `INSERT INTO authorization_codes (code_hash, client_id, user_id, team_id, scope, resource, redirect_uri, code_challenge, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [c.codeHash, c.clientId, c.userId, c.teamId, c.scope, c.resource, c.redirectUri, c.codeChallenge, c.createdAt, c.expiresAt],
      );
    },
    async findAuthorizationCode(codeHash) {
      const r = await row<CodeRow>(pool, 'SELECT * FROM authorization_codes WHERE code_hash = $1', [codeHash]);
      return r ? toCode(r) : undefined;
    },
    async redeemAuthorizationCode(codeHash, at, grant) {
      // A concurrent redemption blocks on the code's row until this commits, then finds it used, with its grant.
      return transaction(pool, async (client) => {
        if ((await changes(client, 'UPDATE authorization_codes SET used_at = $1 WHERE code_hash = $2 AND used_at IS NULL', [at.toISOString(), codeHash])) === 0) return undefined;
        const created = await insertGrant(client, grant);
        await client.query('UPDATE authorization_codes SET grant_id = $1 WHERE code_hash = $2', [created.id, codeHash]);
        return created;
      });
    },
    async deleteExpiredAuthorizationCodes(before) {
      return changes(pool, 'DELETE FROM authorization_codes WHERE expires_at < $1', [before.toISOString()]);
    },
    async insertRefreshToken(t) {
      await pool.query('INSERT INTO refresh_tokens (token_hash, grant_id, client_id, scope, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        t.tokenHash,
        t.grantId,
        t.clientId,
        t.scope,
        t.createdAt,
        t.expiresAt,
      ]);
    },
    async findRefreshToken(tokenHash) {
      const r = await row<RefreshRow>(pool, 'SELECT * FROM refresh_tokens WHERE token_hash = $1', [tokenHash]);
      return r ? toRefresh(r) : undefined;
    },
    async markRefreshTokenRotated(tokenHash, at) {
      await pool.query('UPDATE refresh_tokens SET rotated_at = $1 WHERE token_hash = $2 AND rotated_at IS NULL', [at.toISOString(), tokenHash]);
    },
    async deleteExpiredRefreshTokens(before) {
      return changes(pool, 'DELETE FROM refresh_tokens WHERE expires_at < $1', [before.toISOString()]);
    },
  };
}
