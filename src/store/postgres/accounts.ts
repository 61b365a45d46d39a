/** Local accounts, team members, browser sessions and pending authorization requests on PostgreSQL (store/accounts.ts). */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { AccountStore, User } from '../accounts.ts';
import type { Team } from '../types.ts';
import { changes, row, rows } from './db.ts';

type UserRow = { id: string; email: string; password_hash: string; created_at: string };
type TeamRow = { id: string; name: string; created_at: string };
type SessionRow = { id_hash: string; user_id: string | null; csrf_token: string; created_at: string; expires_at: string };
type RequestRow = { id: string; session_hash: string; params: string; team_id: string | null; expires_at: string };

const toUser = (r: UserRow): User => ({ id: r.id, email: r.email, createdAt: r.created_at });
const toTeam = (r: TeamRow): Team => ({ id: r.id, name: r.name, createdAt: r.created_at });
const USER_COLUMNS = 'id, email, password_hash, created_at';

export function postgresAccountStore(pool: Pool): AccountStore {
  const userTeams = async (userId: string) =>
    (await rows<TeamRow>(pool, 'SELECT t.id, t.name, t.created_at FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id = $1 ORDER BY t.name', [userId])).map(toTeam);
  return {
    async createUser(user) {
      const id = `user_${randomBytes(8).toString('hex')}`;
      const r = await row<UserRow>(
        pool,
        `INSERT INTO users (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING RETURNING ${USER_COLUMNS}`,
        [id, user.email, user.passwordHash, new Date().toISOString()],
      );
      return r ? toUser(r) : undefined;
    },
    async findUserByEmail(email) {
      const r = await row<UserRow>(pool, `SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [email]);
      return r ? { ...toUser(r), passwordHash: r.password_hash } : undefined;
    },
    async getUser(id) {
      const r = await row<UserRow>(pool, `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
      return r ? toUser(r) : undefined;
    },
    async listUsers() {
      const users = await rows<UserRow>(pool, `SELECT ${USER_COLUMNS} FROM users ORDER BY created_at, seq`);
      return Promise.all(users.map(async (r) => ({ ...toUser(r), teams: await userTeams(r.id) })));
    },
    async addTeamMember(userId, teamId) {
      await pool.query('INSERT INTO team_members (user_id, team_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [userId, teamId, new Date().toISOString()]);
    },
    listUserTeams: userTeams,
    async createSession(s) {
      await pool.query('INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
        s.idHash,
        s.userId,
        s.csrfToken,
        new Date().toISOString(),
        s.expiresAt.toISOString(),
      ]);
    },
    async getSession(idHash) {
      const r = await row<SessionRow>(pool, 'SELECT id_hash, user_id, csrf_token, created_at, expires_at FROM sessions WHERE id_hash = $1', [idHash]);
      return r ? { idHash: r.id_hash, userId: r.user_id, csrfToken: r.csrf_token, createdAt: r.created_at, expiresAt: r.expires_at } : undefined;
    },
    async rotateSession(oldIdHash, s) {
      const n = await changes(pool, 'UPDATE sessions SET id_hash = $1, user_id = $2, csrf_token = $3, created_at = $4, expires_at = $5 WHERE id_hash = $6', [
        s.idHash,
        s.userId,
        s.csrfToken,
        new Date().toISOString(),
        s.expiresAt.toISOString(),
        oldIdHash,
      ]);
      return n > 0;
    },
    async deleteSession(idHash) {
      await pool.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
    },
    async deleteExpiredSessions(now) {
      await pool.query('DELETE FROM authorization_requests WHERE expires_at <= $1', [now.toISOString()]);
      await pool.query('DELETE FROM sessions WHERE expires_at <= $1', [now.toISOString()]);
    },
    async createAuthorizationRequest(r) {
      const id = randomBytes(18).toString('base64url');
      await pool.query('INSERT INTO authorization_requests (id, session_hash, params, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
        id,
        r.sessionHash,
        r.params,
        new Date().toISOString(),
        r.expiresAt.toISOString(),
      ]);
      return id;
    },
    async getAuthorizationRequest(id) {
      const r = await row<RequestRow>(pool, 'SELECT id, session_hash, params, team_id, expires_at FROM authorization_requests WHERE id = $1', [id]);
      return r ? { id: r.id, sessionHash: r.session_hash, params: r.params, teamId: r.team_id, expiresAt: r.expires_at } : undefined;
    },
    async setAuthorizationRequestTeam(id, teamId) {
      await pool.query('UPDATE authorization_requests SET team_id = $1 WHERE id = $2', [teamId, id]);
    },
    async deleteAuthorizationRequest(id) {
      return (await changes(pool, 'DELETE FROM authorization_requests WHERE id = $1', [id])) > 0;
    },
  };
}
