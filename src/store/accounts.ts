/**
 * Local accounts for the authorization server's pages (migration 7): users with a scrypt
 * password hash (auth/users.ts), their team memberships, browser sessions (stored by the SHA-256
 * of the cookie value, auth/sessions.ts) and pending authorization requests (auth/authorize.ts),
 * kept server-side so that the sign-in, team and consent pages cannot alter them.
 *
 * The interface and its SQLite implementation, a function of the open database handle.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Team } from './types.ts';

export interface User {
  id: string;
  /** Lower-cased. */
  email: string;
  /** ISO 8601. */
  createdAt: string;
}

export interface UserWithPassword extends User {
  /** Self-describing scrypt hash (auth/users.ts). */
  passwordHash: string;
}

export interface UserWithTeams extends User {
  teams: Team[];
}

export interface StoredSession {
  /** SHA-256 (hex) of the cookie value; the value itself is never stored. */
  idHash: string;
  /** null until the browser signs in. */
  userId: string | null;
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

export interface NewSession {
  idHash: string;
  userId: string | null;
  csrfToken: string;
  expiresAt: Date;
}

export interface StoredAuthorizationRequest {
  id: string;
  sessionHash: string;
  /** JSON of the validated request (auth/authorize.ts `ValidAuthorizationRequest`). */
  params: string;
  /** The team picked on the team page (or the only one), once known. */
  teamId: string | null;
  expiresAt: string;
}

export interface AccountStore {
  /** undefined when a user with this email already exists. */
  createUser(user: { email: string; passwordHash: string }): Promise<User | undefined>;
  findUserByEmail(email: string): Promise<UserWithPassword | undefined>;
  getUser(id: string): Promise<User | undefined>;
  listUsers(): Promise<UserWithTeams[]>;
  /** Idempotent. */
  addTeamMember(userId: string, teamId: string): Promise<void>;
  /** The user's teams, by name. */
  listUserTeams(userId: string): Promise<Team[]>;

  createSession(session: NewSession): Promise<void>;
  getSession(idHash: string): Promise<StoredSession | undefined>;
  /** Replaces a session's id (and user, CSRF token, expiry), keeping its pending requests. false when it is gone. */
  rotateSession(oldIdHash: string, next: NewSession): Promise<boolean>;
  deleteSession(idHash: string): Promise<void>;
  /** Removes expired sessions and authorization requests. */
  deleteExpiredSessions(now: Date): Promise<void>;

  createAuthorizationRequest(request: { sessionHash: string; params: string; expiresAt: Date }): Promise<string>;
  getAuthorizationRequest(id: string): Promise<StoredAuthorizationRequest | undefined>;
  setAuthorizationRequestTeam(id: string, teamId: string): Promise<void>;
  /** true when this call removed it (a request is answered once). */
  deleteAuthorizationRequest(id: string): Promise<boolean>;
}

export const ACCOUNTS_SQL = `
  CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    email          TEXT NOT NULL UNIQUE,
    password_hash  TEXT NOT NULL,
    created_at     TEXT NOT NULL
  );
  CREATE TABLE team_members (
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    team_id     TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (user_id, team_id)
  );
  CREATE TABLE sessions (
    id_hash     TEXT PRIMARY KEY,
    user_id     TEXT REFERENCES users(id) ON DELETE CASCADE,
    csrf_token  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL
  );
  CREATE INDEX sessions_expiry ON sessions(expires_at);
  CREATE TABLE authorization_requests (
    id            TEXT PRIMARY KEY,
    session_hash  TEXT NOT NULL REFERENCES sessions(id_hash) ON DELETE CASCADE ON UPDATE CASCADE,
    params        TEXT NOT NULL,
    team_id       TEXT REFERENCES teams(id) ON DELETE CASCADE,
    created_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL
  );
  CREATE INDEX authorization_requests_expiry ON authorization_requests(expires_at);
`;

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
}

interface TeamRow {
  id: string;
  name: string;
  created_at: string;
}

interface SessionRow {
  id_hash: string;
  user_id: string | null;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

interface RequestRow {
  id: string;
  session_hash: string;
  params: string;
  team_id: string | null;
  expires_at: string;
}

const toUser = (r: UserRow): User => ({ id: r.id, email: r.email, createdAt: r.created_at });
const toTeam = (r: TeamRow): Team => ({ id: r.id, name: r.name, createdAt: r.created_at });

export function sqliteAccountStore(db: Database.Database): AccountStore {
  const q = {
    insertUser: db.prepare('INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(email) DO NOTHING'),
    userByEmail: db.prepare<[string], UserRow>('SELECT id, email, password_hash, created_at FROM users WHERE email = ?'),
    userById: db.prepare<[string], UserRow>('SELECT id, email, password_hash, created_at FROM users WHERE id = ?'),
    allUsers: db.prepare<[], UserRow>('SELECT id, email, password_hash, created_at FROM users ORDER BY created_at, rowid'),
    addMember: db.prepare('INSERT INTO team_members (user_id, team_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
    userTeams: db.prepare<[string], TeamRow>(
      'SELECT t.id, t.name, t.created_at FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id = ? ORDER BY t.name',
    ),
    insertSession: db.prepare('INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)'),
    sessionByHash: db.prepare<[string], SessionRow>('SELECT id_hash, user_id, csrf_token, created_at, expires_at FROM sessions WHERE id_hash = ?'),
    rotateSession: db.prepare('UPDATE sessions SET id_hash = ?, user_id = ?, csrf_token = ?, created_at = ?, expires_at = ? WHERE id_hash = ?'),
    deleteSession: db.prepare('DELETE FROM sessions WHERE id_hash = ?'),
    expireSessions: db.prepare('DELETE FROM sessions WHERE expires_at <= ?'),
    expireRequests: db.prepare('DELETE FROM authorization_requests WHERE expires_at <= ?'),
    insertRequest: db.prepare('INSERT INTO authorization_requests (id, session_hash, params, created_at, expires_at) VALUES (?, ?, ?, ?, ?)'),
    requestById: db.prepare<[string], RequestRow>('SELECT id, session_hash, params, team_id, expires_at FROM authorization_requests WHERE id = ?'),
    setRequestTeam: db.prepare('UPDATE authorization_requests SET team_id = ? WHERE id = ?'),
    deleteRequest: db.prepare('DELETE FROM authorization_requests WHERE id = ?'),
  };
  return {
    async createUser(user) {
      const id = `user_${randomBytes(8).toString('hex')}`;
      const inserted = q.insertUser.run(id, user.email, user.passwordHash, new Date().toISOString()).changes > 0;
      const row = inserted ? q.userById.get(id) : undefined;
      return row ? toUser(row) : undefined;
    },
    async findUserByEmail(email) {
      const row = q.userByEmail.get(email);
      return row ? { ...toUser(row), passwordHash: row.password_hash } : undefined;
    },
    async getUser(id) {
      const row = q.userById.get(id);
      return row ? toUser(row) : undefined;
    },
    async listUsers() {
      return q.allUsers.all().map((r) => ({ ...toUser(r), teams: q.userTeams.all(r.id).map(toTeam) }));
    },
    async addTeamMember(userId, teamId) {
      q.addMember.run(userId, teamId, new Date().toISOString());
    },
    async listUserTeams(userId) {
      return q.userTeams.all(userId).map(toTeam);
    },
    async createSession(s) {
      q.insertSession.run(s.idHash, s.userId, s.csrfToken, new Date().toISOString(), s.expiresAt.toISOString());
    },
    async getSession(idHash) {
      const r = q.sessionByHash.get(idHash);
      return r ? { idHash: r.id_hash, userId: r.user_id, csrfToken: r.csrf_token, createdAt: r.created_at, expiresAt: r.expires_at } : undefined;
    },
    async rotateSession(oldIdHash, s) {
      return q.rotateSession.run(s.idHash, s.userId, s.csrfToken, new Date().toISOString(), s.expiresAt.toISOString(), oldIdHash).changes > 0;
    },
    async deleteSession(idHash) {
      q.deleteSession.run(idHash);
    },
    async deleteExpiredSessions(now) {
      q.expireRequests.run(now.toISOString());
      q.expireSessions.run(now.toISOString());
    },
    async createAuthorizationRequest(r) {
      const id = randomBytes(18).toString('base64url');
      q.insertRequest.run(id, r.sessionHash, r.params, new Date().toISOString(), r.expiresAt.toISOString());
      return id;
    },
    async getAuthorizationRequest(id) {
      const r = q.requestById.get(id);
      return r ? { id: r.id, sessionHash: r.session_hash, params: r.params, teamId: r.team_id, expiresAt: r.expires_at } : undefined;
    },
    async setAuthorizationRequestTeam(id, teamId) {
      q.setRequestTeam.run(teamId, id);
    },
    async deleteAuthorizationRequest(id) {
      return q.deleteRequest.run(id).changes > 0;
    },
  };
}
