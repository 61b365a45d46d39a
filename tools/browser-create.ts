/** The `browser_create` tool: a browser session of the caller's team (as POST /v2/browser). */
import { z } from 'zod';
import { cdpUrlOf, DEFAULT_ACTIVITY_TTL_SECONDS, DEFAULT_SESSION_TTL_SECONDS, type BrowserService } from '../src/browser/index.ts';
import { ownerOf } from './browser-result.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export function createBrowserCreateTool(browser: BrowserService, publicUrl: string): AnyToolDefinition {
  return defineTool({
    name: 'browser_create',
    title: 'Open a browser session',
    description:
      'Open a headless browser session of your own (a fresh Chromium, nothing shared) and get its id and `cdpUrl` (a DevTools WebSocket for Playwright/Puppeteer `connectOverCDP`; treat it as a secret). Run code in it with `browser_execute`; close it with `browser_delete` (it also ends after `ttl` seconds, or `activityTtl` seconds unused).',
    inputSchema: z.object({
      ttl: z.number().int().min(30).optional().describe(`Seconds the session lives at most (default ${DEFAULT_SESSION_TTL_SECONDS}).`),
      activityTtl: z.number().int().min(10).optional().describe(`Seconds without use after which it ends (default ${DEFAULT_ACTIVITY_TTL_SECONDS}).`),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    keyless: false,
    async run(input, ctx) {
      const session = await browser.sessions.create(ownerOf(ctx.caller), { kind: 'session', ttlSeconds: input.ttl ?? DEFAULT_SESSION_TTL_SECONDS, activityTtlSeconds: input.activityTtl ?? DEFAULT_ACTIVITY_TTL_SECONDS });
      const structured = { success: true, id: session.id, cdpUrl: cdpUrlOf(publicUrl, session), expiresAt: session.expiresAt.toISOString() };
      return { text: `Browser session ${session.id} is open until ${structured.expiresAt}. Run code in it with browser_execute {"sessionId": "${session.id}", "code": "…"}.`, structured };
    },
  });
}
