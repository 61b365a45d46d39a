/**
 * Audit events of MCP tool calls: the tool-call wrapper (src/mcp/server.ts) reports each call
 * that ended, whatever its outcome; a call by a team (API key or OAuth) becomes one event.
 * Keyless and local (stdio) callers have no team, hence no sink.
 */
import { randomUUID } from 'node:crypto';
import { ERROR_STATUS, type ErrorCode } from '../errors.ts';
import { describeInput, fileNameHash, pagesOf, type AuditEvent } from './event.ts';

export interface ToolCallRecord {
  tool: string;
  caller: { kind: string; teamId?: string; teamName?: string; userId?: string; keyId?: string; oauthClientId?: string };
  /** The validated arguments. */
  input: Record<string, unknown>;
  /** `ok`, `cancelled` or the error code the call ended with. */
  outcome: string;
  durationMs: number;
  /** The result's structured content, when it succeeded (for the page count). */
  result?: Record<string, unknown>;
  /** The file the call parsed, when it had one (a local path's or an upload's name). */
  file?: { name: string; size: number | null; contentType?: string | null };
  requestId?: string;
}

function statusOf(outcome: string): number {
  if (outcome === 'ok') return 200;
  if (outcome === 'cancelled') return 499;
  return outcome in ERROR_STATUS ? ERROR_STATUS[outcome as ErrorCode] : 500;
}

export function toolCallEvent(record: ToolCallRecord): AuditEvent | undefined {
  const { caller } = record;
  if (caller.teamId === undefined) return undefined;
  const filePath = typeof record.input.filePath === 'string' ? record.input.filePath : undefined;
  const fileName = record.file?.name ?? (filePath !== undefined ? filePath.split(/[\\/]/).pop() ?? filePath : undefined);
  return {
    version: 1,
    time: new Date().toISOString(),
    requestId: record.requestId ?? randomUUID(),
    teamId: caller.teamId,
    teamName: caller.teamName ?? null,
    actor: {
      kind: caller.kind,
      ...(caller.keyId !== undefined ? { keyId: caller.keyId } : {}),
      ...(caller.oauthClientId !== undefined ? { oauthClientId: caller.oauthClientId } : {}),
      ...(caller.userId !== undefined ? { userId: caller.userId } : {}),
    },
    door: 'mcp',
    operation: record.tool,
    file: fileName !== undefined ? { nameSha256: fileNameHash(fileName), size: record.file?.size ?? null, contentType: record.file?.contentType ?? null } : null,
    ...describeInput(record.input),
    status: statusOf(record.outcome),
    errorCode: record.outcome === 'ok' || record.outcome === 'cancelled' ? null : record.outcome,
    durationMs: Math.round(record.durationMs * 10) / 10,
    pages: pagesOf(record.result),
    credits: null,
  };
}
