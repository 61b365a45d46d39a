/**
 * The upload command a remote tool server hands out for `parse{filePath}` (issue 5 §5): one
 * POSIX shell `curl` line that PUTs the local file to the ticket's upload URL. It carries no API
 * key or token of the caller: the URL alone is the (short-lived, single-use) capability.
 */
import type { UploadTicket } from './types.ts';

/** POSIX shell single quoting: `'` … `'`, with each `'` written as `'\''`. Safe for any path or URL. */
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

/**
 * `curl -sS --fail-with-body -X PUT -T '<localPath>' '<uploadUrl>'` for a POSIX shell (macOS,
 * Linux, WSL, Git Bash). `--fail-with-body` makes a refused upload exit non-zero and still print
 * folio's error body.
 */
export function curlUploadCommand(ticket: Pick<UploadTicket, 'uploadUrl' | 'method'>, localPath: string): string {
  return `curl -sS --fail-with-body -X ${ticket.method} -T ${shellPath(localPath)} ${shellQuote(ticket.uploadUrl)}`;
}

/** The file name part of a path, POSIX or Windows style. */
export function baseName(filePath: string): string {
  const parts = filePath.split(/[\\/]+/).filter((p) => p.length > 0);
  return parts[parts.length - 1] ?? filePath;
}
