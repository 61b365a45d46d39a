/**
 * OAuth clients registered through RFC 7591 (migration 6), the SQLite implementation of
 * `OAuthClientStore` (auth/clients.ts). Client ID Metadata Documents are not stored: they are
 * fetched and cached in memory per HTTP caching (auth/client-metadata-document.ts).
 */
import type Database from 'better-sqlite3';
import type { NewRegisteredOAuthClient, OAuthClientStore, RegisteredClientMetadata, RegisteredOAuthClient } from '../../auth/clients.ts';

export const OAUTH_CLIENTS_SQL = `
  CREATE TABLE oauth_clients (
    id             TEXT PRIMARY KEY,
    kind           TEXT NOT NULL CHECK (kind IN ('dcr')),
    name           TEXT,
    redirect_uris  TEXT NOT NULL,
    metadata       TEXT NOT NULL,
    created_at     TEXT NOT NULL
  );
`;

export interface ClientRow {
  id: string;
  name: string | null;
  redirect_uris: string;
  metadata: string;
  created_at: string;
}

export function toClient(row: ClientRow): RegisteredOAuthClient {
  const redirectUris: unknown = JSON.parse(row.redirect_uris);
  const metadata: unknown = JSON.parse(row.metadata);
  if (!Array.isArray(redirectUris) || !redirectUris.every((u): u is string => typeof u === 'string')) throw new Error(`client ${row.id} has malformed redirect_uris`);
  if (typeof metadata !== 'object' || metadata === null) throw new Error(`client ${row.id} has malformed metadata`);
  return { id: row.id, name: row.name, redirectUris, metadata: metadata as RegisteredClientMetadata, createdAt: row.created_at };
}

export function sqliteOAuthClientStore(db: Database.Database): OAuthClientStore {
  const insert = db.prepare("INSERT INTO oauth_clients (id, kind, name, redirect_uris, metadata, created_at) VALUES (?, 'dcr', ?, ?, ?, ?)");
  const get = db.prepare<[string], ClientRow>('SELECT id, name, redirect_uris, metadata, created_at FROM oauth_clients WHERE id = ?');
  return {
    async createOAuthClient(client: NewRegisteredOAuthClient) {
      insert.run(client.id, client.name, JSON.stringify(client.redirectUris), JSON.stringify(client.metadata), client.createdAt.toISOString());
      const row = get.get(client.id);
      if (!row) throw new Error('the registered client was not stored');
      return toClient(row);
    },
    async getOAuthClient(id: string) {
      const row = get.get(id);
      return row ? toClient(row) : undefined;
    },
  };
}
