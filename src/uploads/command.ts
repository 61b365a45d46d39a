/**
 * The upload command a remote tool server hands out for `parse{filePath}` (issue 5 §5): one
 * `curl` line that PUTs the local file to the ticket's upload URL. It carries no API key or
 * token of the caller: the URL alone is the (short-lived, single-use) capability.
 */
import type { UploadTicket } from './types.ts';

/** POSIX shell single-quoting: safe for any path or URL. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `curl -sS -X PUT -T '<localPath>' '<uploadUrl>'` for a POSIX shell (macOS, Linux, WSL, Git Bash). */
export function curlUploadCommand(ticket: Pick<UploadTicket, 'uploadUrl' | 'method'>, localPath: string): string {
  return `curl -sS -X ${ticket.method} -T ${shellQuote(localPath)} ${shellQuote(ticket.uploadUrl)}`;
}
