/** The `browser_execute` tool: Node code against a session's page, sandboxed (as POST /v2/browser/{id}/execute). */
import { z } from 'zod';
import { DEFAULT_EXECUTE_TIMEOUT_SECONDS, MAX_EXECUTE_TIMEOUT_SECONDS, type BrowserService } from '../src/browser/index.ts';
import { ServiceError } from '../src/errors.ts';
import { executeToolResult, nodeOnly, ownerOf } from './browser-result.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export function createBrowserExecuteTool(browser: BrowserService): AnyToolDefinition {
  return defineTool({
    name: 'browser_execute',
    title: 'Run code in a browser session',
    description:
      'Run Node.js code against the page of a browser session (from `browser_create`): the body of an async function with Playwright\'s `page`, `context` and `browser`, e.g. `await page.goto("https://example.com"); return await page.title()`. `return` a value to get it back; console output is returned too. The code runs sandboxed: no file writes, no processes, no network but the browser.',
    inputSchema: z.object({
      sessionId: z.string().min(1).describe('The id from browser_create.'),
      code: z.string().min(1).max(100_000).describe('Node.js code (an async function body).'),
      language: z.enum(['node', 'python', 'bash']).optional().describe('Only `node` is available.'),
      timeout: z.number().min(1).max(MAX_EXECUTE_TIMEOUT_SECONDS).optional().describe('Seconds (default 30).'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    keyless: false,
    async run(input, ctx) {
      nodeOnly(input.language);
      const owner = ownerOf(ctx.caller);
      const session = await browser.sessions.use(input.sessionId, owner.teamId);
      if (!session || session.kind !== 'session') throw new ServiceError('NOT_FOUND', `No browser session ${input.sessionId.slice(0, 64)} of your team is open: it was deleted, expired, or its API key was revoked. Open one with browser_create.`);
      return executeToolResult(await browser.execute(session, input.code, input.timeout ?? DEFAULT_EXECUTE_TIMEOUT_SECONDS, ctx.signal));
    },
  });
}
