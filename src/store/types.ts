/**
 * Persistence behind an interface (DESIGN.md "store/"): teams and API keys. The methods are
 * asynchronous so that a client-server engine (PostgreSQL) can implement the same interface as
 * the embedded SQLite one.
 *
 * The store never sees an API key in clear: it keeps the SHA-256 of the key and a short display
 * prefix, both computed by `auth/api-keys.ts`.
 */
import type { AccountStore } from './accounts.ts';
import type { CrawlJobStore } from './crawl-jobs.ts';
import type { AgentJobStore } from './agent-jobs.ts';
import type { KeylessUsageStore } from './keyless-usage.ts';
import type { OAuthStore } from './oauth.ts';
import type { OAuthTokenStore } from './oauth-tokens.ts';
import type { OAuthClientStore } from '../../auth/clients.ts';
import type { UploadRefStore } from './upload-refs.ts';
import type { TeamPlanStore } from './team-plans.ts';
import type { CreditLedgerStore } from './credit-ledger.ts';

export interface Team {
  id: string;
  name: string;
  /** ISO 8601. */
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  teamId: string;
  teamName: string;
  /** The first characters of the key, safe to show (`folio_AbC123`). */
  prefix: string;
  /** SHA-256 of the key, lower-case hex. */
  keyHash: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface NewApiKey {
  teamId: string;
  keyHash: string;
  prefix: string;
}

export interface Store extends AccountStore, OAuthStore, OAuthClientStore, OAuthTokenStore, UploadRefStore, KeylessUsageStore, CrawlJobStore, AgentJobStore, TeamPlanStore, CreditLedgerStore {
  /** The team with this name, created when it does not exist yet. */
  ensureTeam(name: string): Promise<Team>;
  findTeamByName(name: string): Promise<Team | undefined>;
  /** Every team, by name. */
  listTeams(): Promise<Team[]>;

  createApiKey(key: NewApiKey): Promise<ApiKeyRecord>;
  /** All keys, oldest first, revoked ones included. */
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked (idempotent); undefined when no key has this id. */
  revokeApiKey(id: string): Promise<ApiKeyRecord | undefined>;
  getApiKey(id: string): Promise<ApiKeyRecord | undefined>;
  /** The key with this hash, revoked or not. */
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /** Records a use of the key. */
  touchApiKey(id: string, at: Date): Promise<void>;

  /** Resolves when the store answers a trivial query (`/ready`); throws when it cannot. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
