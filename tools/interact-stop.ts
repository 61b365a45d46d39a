/** The `interact_stop` tool (firecrawl-mcp's firecrawl_interact_stop): closes a scrape's interact page. */
import { z } from 'zod';
import type { BrowserService } from '../src/browser/index.ts';
import { ownerOf } from './browser-result.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export function createInteractStopTool(browser: BrowserService): AnyToolDefinition {
  return defineTool({
    name: 'interact_stop',
    title: 'Stop interacting with a page',
    description: 'Close the browser page that `interact` opened for a scrape (it also closes by itself when idle).',
    inputSchema: z.object({ scrapeId: z.string().trim().min(1).describe('The scrapeId given to `interact`.') }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    keyless: false,
    async run(input, ctx) {
      const owner = ownerOf(ctx.caller);
      const target = await browser.interact.current(input.scrapeId, owner.teamId);
      if (target) await browser.endInteract(target, 'stopped by its owner');
      return { text: target ? `Closed the page of scrape ${input.scrapeId}.` : `No page of scrape ${input.scrapeId} was open.`, structured: { success: true, status: 'destroyed' } };
    },
  });
}
