/**
 * What the browser tools (interact, browser_execute) show a model: the code's or prompt's
 * `result`, its stdout and stderr, and how it ended; the structured content is the HTTP answer's
 * shape (the Firecrawl SDK's BrowserExecuteResponse). Page text in it is data, not instructions.
 */
import type { ExecuteResult, SessionOwner } from '../src/browser/index.ts';
import { ServiceError } from '../src/errors.ts';
import { oauthClientOf, type Caller, type ToolResult } from './types.ts';

export function executeToolResult(r: ExecuteResult, extra: Record<string, unknown> = {}): ToolResult {
  const parts: string[] = [];
  if (r.result !== undefined) parts.push(`result:\n${r.result}`);
  if (r.stdout) parts.push(`stdout:\n${r.stdout}`);
  if (r.stderr) parts.push(`stderr:\n${r.stderr}`);
  parts.push(`exit code ${r.exitCode}${r.killed ? ' (killed: timeout)' : ''}${r.truncated ? ' (output truncated)' : ''}`);
  return { text: parts.join('\n\n'), structured: { success: true, ...r, output: r.stdout, ...extra } };
}

/** The session owner of a keyed caller (its team, and its API key when it used one). */
export function ownerOf(caller: Caller): SessionOwner {
  if (!caller.teamId) throw new ServiceError('UNAUTHORIZED', 'Browser tools need an API key or a folio OAuth token: they act for a team.');
  const oauthClient = oauthClientOf(caller);
  return { teamId: caller.teamId, ...(caller.keyId ? { keyId: caller.keyId } : {}), ...(oauthClient !== undefined ? { oauthClient } : {}) };
}

/** Node only, as on HTTP. */
export function nodeOnly(language: string | undefined): void {
  if (language === undefined || language === 'node') return;
  throw new ServiceError('BAD_REQUEST', `folio runs browser code in Node.js only: \`language: "${language}"\` is not available. Send \`language: "node"\` with JavaScript that uses the \`page\`, \`context\` and \`browser\` handles (Playwright's), e.g. \`return await page.title()\`.`);
}
