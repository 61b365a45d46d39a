/**
 * The one-time upload command a remote `parse{filePath}` answers with: a POSIX shell `curl` line
 * that PUTs the caller's file to the ticket's upload URL. It carries no API key or token: the
 * URL itself is the short-lived, single-use capability.
 */
import type { UploadTicket } from '../src/uploads/types.ts';

/** POSIX shell single quoting: `'` … `'`, with each `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A path as a shell word. A leading `~/` stays outside the quotes so that the shell expands it
 * (quoted, `~` is a literal directory name).
 */
export function shellPath(filePath: string): string {
  if (filePath === '~') return '~';
  if (filePath.startsWith('~/')) return `~/${shellQuote(filePath.slice(2))}`;
  return shellQuote(filePath);
}

export function uploadCommand(filePath: string, ticket: UploadTicket): string {
  return `curl -sS --fail-with-body -X ${ticket.method} -T ${shellPath(filePath)} ${shellQuote(ticket.uploadUrl)}`;
}

/** The file name part of a path, POSIX or Windows style. */
export function baseName(filePath: string): string {
  const parts = filePath.split(/[\\/]+/).filter((p) => p.length > 0);
  return parts[parts.length - 1] ?? filePath;
}
