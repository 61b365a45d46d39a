/**
 * The offline `json` format (issue 14): the user's schema filled from the document's own
 * structure (tables, key: value lines, metadata), never an invented value. Not built yet.
 */
import type { ReadResult } from '../../document.ts';

export interface OfflineJson {
  /** The filled value: an object or array valid for the schema's shape, fields left out when unknown. */
  json: unknown;
  /** JSON Pointers (`/invoice/total`) of the schema's fields nothing in the document matched. */
  emptyFields: string[];
}

/** undefined: nothing in the document matches the schema (the caller answers NOT_CONFIGURED). */
export function offlineJson(_read: ReadResult, _schema: Record<string, unknown>): OfflineJson | undefined {
  return undefined;
}
