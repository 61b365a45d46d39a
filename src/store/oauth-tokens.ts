/**
 * Authorization codes and refresh tokens at rest (migration 8; docs/oauth.md "Token endpoint").
 * Neither is ever stored in clear: rows are keyed by the SHA-256 of the value (computed in auth/).
 * Every state change that two requests could race for (redeeming a code, rotating a refresh
 * token) is one conditional UPDATE, so only one of them wins.
 */
import type Database from 'better-sqlite3';
import { isMcpResourcePath, type NewOAuthGrant, type OAuthGrant } from '../../auth/grants.ts';
import { insertOAuthGrant } from './oauth.ts';
import type { McpResourcePath } from '../../auth/access-token-types.ts';

export const OAUTH_TOKENS_SQL = `
  CREATE TABLE authorization_codes (
    code_hash       TEXT PRIMARY KEY,
    client_id       TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    team_id         TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    scope           TEXT NOT NULL,
    resource        TEXT NOT NULL,
    redirect_uri    TEXT NOT NULL,
    code_challenge  TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    expires_at      TEXT NOT NULL,
    used_at         TEXT,
    grant_id        TEXT REFERENCES oauth_grants(id) ON DELETE SET NULL
  );
  CREATE INDEX authorization_codes_expiry ON authorization_codes(expires_at);
  CREATE TABLE refresh_tokens (
    token_hash  TEXT PRIMARY KEY,
    grant_id    TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    client_id   TEXT NOT NULL,
    scope       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    rotated_at  TEXT
  );
  CREATE INDEX refresh_tokens_grant ON refresh_tokens(grant_id);
  CREATE INDEX refresh_tokens_expiry ON refresh_tokens(expires_at);
`;

export interface AuthorizationCodeRecord {
  codeHash: string;
  clientId: string;
  userId: string;
  teamId: string;
  scope: string;
  resource: McpResourcePath;
  redirectUri: string;
  codeChallenge: string;
  /** ISO 8601. */
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  /** The grant the code's redemption created. */
  grantId: string | null;
}

export type NewAuthorizationCode = Omit<AuthorizationCodeRecord, 'usedAt' | 'grantId'>;

export interface RefreshTokenRecord {
  tokenHash: string;
  grantId: string;
  clientId: string;
  scope: string;
  createdAt: string;
  expiresAt: string;
  /** When the token was first exchanged for a new one (rotation); null while it is the current one. */
  rotatedAt: string | null;
}

export type NewRefreshToken = Omit<RefreshTokenRecord, 'rotatedAt'>;

export interface OAuthTokenStore {
  insertAuthorizationCode(code: NewAuthorizationCode): Promise<void>;
  findAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined>;
  /**
   * Redeems the code: marks it used at `at`, creates its grant and records it on the code (what a
   * replay revokes), in one transaction, so that a request that finds the code used also finds
   * its grant. undefined when another request (on any instance) redeemed it first.
   */
  redeemAuthorizationCode(codeHash: string, at: Date, grant: NewOAuthGrant): Promise<OAuthGrant | undefined>;
  /** Deletes codes that expired before `before`; the number deleted. */
  deleteExpiredAuthorizationCodes(before: Date): Promise<number>;

  insertRefreshToken(token: NewRefreshToken): Promise<void>;
  findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /** Sets `rotated_at` to `at` unless it is set already (the first rotation counts). */
  markRefreshTokenRotated(tokenHash: string, at: Date): Promise<void>;
  /** Deletes refresh tokens that expired before `before`; the number deleted. */
  deleteExpiredRefreshTokens(before: Date): Promise<number>;
}

export interface CodeRow {
  code_hash: string;
  client_id: string;
  user_id: string;
  team_id: string;
  scope: string;
  resource: string;
  redirect_uri: string;
  code_challenge: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  grant_id: string | null;
}

export interface RefreshRow {
  token_hash: string;
  grant_id: string;
  client_id: string;
  scope: string;
  created_at: string;
  expires_at: string;
  rotated_at: string | null;
}

export function toCode(row: CodeRow): AuthorizationCodeRecord {
  if (!isMcpResourcePath(row.resource)) throw new Error(`an authorization code has an unknown resource ${row.resource}`);
  return {
    codeHash: row.code_hash,
    clientId: row.client_id,
    userId: row.user_id,
    teamId: row.team_id,
    scope: row.scope,
    resource: row.resource,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    grantId: row.grant_id,
  };
}

export function toRefresh(row: RefreshRow): RefreshTokenRecord {
  return {
    tokenHash: row.token_hash,
    grantId: row.grant_id,
    clientId: row.client_id,
    scope: row.scope,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    rotatedAt: row.rotated_at,
  };
}

export function sqliteOAuthTokenStore(db: Database.Database): OAuthTokenStore {
  const q = {
    insertCode: db.prepare(
      `INSERT INTO authorization_codes (code_hash, client_id, user_id, team_id, scope, resource, redirect_uri, code_challenge, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    codeByHash: db.prepare<[string], CodeRow>('SELECT * FROM authorization_codes WHERE code_hash = ?'),
    useCode: db.prepare('UPDATE authorization_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL'),
    insertGrant: insertOAuthGrant(db),
    setCodeGrant: db.prepare('UPDATE authorization_codes SET grant_id = ? WHERE code_hash = ?'),
    deleteExpiredCodes: db.prepare('DELETE FROM authorization_codes WHERE expires_at < ?'),
    insertRefresh: db.prepare(
      'INSERT INTO refresh_tokens (token_hash, grant_id, client_id, scope, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    refreshByHash: db.prepare<[string], RefreshRow>('SELECT * FROM refresh_tokens WHERE token_hash = ?'),
    rotateRefresh: db.prepare('UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL'),
    deleteExpiredRefresh: db.prepare('DELETE FROM refresh_tokens WHERE expires_at < ?'),
  };
  const redeem = db.transaction((codeHash: string, at: Date, grant: NewOAuthGrant): OAuthGrant | undefined => {
    if (q.useCode.run(at.toISOString(), codeHash).changes === 0) return undefined;
    const created = q.insertGrant(grant);
    q.setCodeGrant.run(created.id, codeHash);
    return created;
  });
  return {
    async insertAuthorizationCode(c) {
      q.insertCode.run(c.codeHash, c.clientId, c.userId, c.teamId, c.scope, c.resource, c.redirectUri, c.codeChallenge, c.createdAt, c.expiresAt);
    },
    async findAuthorizationCode(codeHash) {
      const row = q.codeByHash.get(codeHash);
      return row ? toCode(row) : undefined;
    },
    async redeemAuthorizationCode(codeHash, at, grant) {
      return redeem.immediate(codeHash, at, grant);
    },
    async deleteExpiredAuthorizationCodes(before) {
      return q.deleteExpiredCodes.run(before.toISOString()).changes;
    },
    async insertRefreshToken(t) {
      q.insertRefresh.run(t.tokenHash, t.grantId, t.clientId, t.scope, t.createdAt, t.expiresAt);
    },
    async findRefreshToken(tokenHash) {
      const row = q.refreshByHash.get(tokenHash);
      return row ? toRefresh(row) : undefined;
    },
    async markRefreshTokenRotated(tokenHash, at) {
      q.rotateRefresh.run(at.toISOString(), tokenHash);
    },
    async deleteExpiredRefreshTokens(before) {
      return q.deleteExpiredRefresh.run(before.toISOString()).changes;
    },
  };
}
