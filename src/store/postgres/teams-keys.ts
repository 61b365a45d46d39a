/** Teams and API keys on PostgreSQL (the `Store` methods of src/store/types.ts). */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { ApiKeyRecord, Store, Team } from '../types.ts';
import { row, rows } from './db.ts';

type TeamRow = { id: string; name: string; created_at: string };
type ApiKeyRow = {
  id: string;
  team_id: string;
  team_name: string;
  key_hash: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

const toTeam = (r: TeamRow): Team => ({ id: r.id, name: r.name, createdAt: r.created_at });
const toKey = (r: ApiKeyRow): ApiKeyRecord => ({
  id: r.id,
  teamId: r.team_id,
  teamName: r.team_name,
  keyHash: r.key_hash,
  prefix: r.prefix,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

const KEY_SELECT = `SELECT k.id, k.team_id, t.name AS team_name, k.key_hash, k.prefix, k.created_at, k.last_used_at, k.revoked_at
  FROM api_keys k JOIN teams t ON t.id = k.team_id`;

export type TeamKeyStore = Pick<Store, 'ensureTeam' | 'findTeamByName' | 'listTeams' | 'createApiKey' | 'listApiKeys' | 'revokeApiKey' | 'getApiKey' | 'findApiKeyByHash' | 'touchApiKey'>;

export function postgresTeamKeyStore(pool: Pool): TeamKeyStore {
  const keyById = async (id: string) => row<ApiKeyRow>(pool, `${KEY_SELECT} WHERE k.id = $1`, [id]);
  return {
    async ensureTeam(name) {
      // One statement: of two instances creating the same team, one inserts and both read it.
      await pool.query('INSERT INTO teams (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [
        `team_${randomBytes(8).toString('hex')}`,
        name,
        new Date().toISOString(),
      ]);
      const r = await row<TeamRow>(pool, 'SELECT id, name, created_at FROM teams WHERE name = $1', [name]);
      if (!r) throw new Error('team insert did not persist');
      return toTeam(r);
    },
    async findTeamByName(name) {
      const r = await row<TeamRow>(pool, 'SELECT id, name, created_at FROM teams WHERE name = $1', [name]);
      return r ? toTeam(r) : undefined;
    },
    async listTeams() {
      return (await rows<TeamRow>(pool, 'SELECT id, name, created_at FROM teams ORDER BY name')).map(toTeam);
    },
    async createApiKey(key) {
      const id = `key_${randomBytes(8).toString('hex')}`;
      await pool.query('INSERT INTO api_keys (id, team_id, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5)', [
        id,
        key.teamId,
        key.keyHash,
        key.prefix,
        new Date().toISOString(),
      ]);
      const r = await keyById(id);
      if (!r) throw new Error('api key insert did not persist');
      return toKey(r);
    },
    async listApiKeys() {
      return (await rows<ApiKeyRow>(pool, `${KEY_SELECT} ORDER BY k.created_at, k.seq`)).map(toKey);
    },
    async revokeApiKey(id) {
      await pool.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [new Date().toISOString(), id]);
      const r = await keyById(id);
      return r ? toKey(r) : undefined;
    },
    async getApiKey(id) {
      const r = await keyById(id);
      return r ? toKey(r) : undefined;
    },
    async findApiKeyByHash(keyHash) {
      const r = await row<ApiKeyRow>(pool, `${KEY_SELECT} WHERE k.key_hash = $1`, [keyHash]);
      return r ? toKey(r) : undefined;
    },
    async touchApiKey(id, at) {
      await pool.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at.toISOString(), id]);
    },
  };
}
