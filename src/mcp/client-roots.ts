/**
 * The directories a local (stdio) server may read, in the order issue 5 §6 gives: the client's
 * MCP roots, else FOLIO_ALLOWED_DIRS, else the working directory.
 *
 * MCP 2025-11-25 "Client Features › Roots": a client that declared the `roots` capability answers
 * `roots/list` with `file://` URIs, and sends `notifications/roots/list_changed` when they change
 * (then the list is asked for again). Roots are asked for lazily, at the first file read, and
 * cached until such a notification. A client that declared no roots capability, or whose list
 * holds no `file://` root (VS Code with no folder open answers an empty list), gets the
 * configured directories; so does one whose `roots/list` fails, with a warning in the log.
 */
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log.ts';

/** How long a `roots/list` request may take before the configured directories are used. */
export const ROOTS_LIST_TIMEOUT_MS = 10_000;

export interface ClientRootsOptions {
  server: Server;
  /** FOLIO_ALLOWED_DIRS, or the working directory when it is empty. */
  fallback: readonly string[];
  logger: Logger;
}

/** `file://` URIs to paths; other schemes are not directories on this machine and are skipped. */
export function rootPaths(uris: readonly string[]): string[] {
  const paths: string[] = [];
  for (const uri of uris) {
    if (!uri.startsWith('file://')) continue;
    try {
      paths.push(fileURLToPath(uri));
    } catch {
      // A malformed file URI (e.g. a remote host) names no local directory.
    }
  }
  return paths;
}

export function clientRoots({ server, fallback, logger }: ClientRootsOptions): () => Promise<string[]> {
  let cached: Promise<string[] | undefined> | undefined;
  let generation = 0;

  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    generation += 1;
    cached = undefined;
  });

  const ask = async (asked: number): Promise<string[] | undefined> => {
    try {
      const { roots } = await server.listRoots(undefined, { timeout: ROOTS_LIST_TIMEOUT_MS });
      const paths = rootPaths(roots.map((r) => r.uri));
      logger.info({ roots: paths }, paths.length > 0 ? 'using the client roots' : 'the client listed no file roots; using the configured directories');
      return paths.length > 0 ? paths : undefined;
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'roots/list failed; using the configured directories');
      // Not cached: the next read asks again.
      if (asked === generation) cached = undefined;
      return undefined;
    }
  };

  return async () => {
    if (!server.getClientCapabilities()?.roots) return [...fallback];
    const asked = generation;
    cached ??= ask(asked);
    return (await cached) ?? [...fallback];
  };
}
