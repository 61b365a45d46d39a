/**
 * The `scrape` tool: a public URL → clean markdown, through the same scrape() as
 * `POST /v2/scrape` (interface-v2 "What the service does": scrape for public URLs, parse for
 * local or non-public files). Keyless: the spec lists Scrape among the tools open without a
 * credential. `maxChars`/`offset` slice the markdown, because long pages overflow a client's
 * limits; a continuation re-scrapes the URL (nothing is kept between calls).
 */
import { z } from 'zod';
import type { BrowserService } from '../src/browser/index.ts';
import type { ParseRunner } from '../src/limits/runner.ts';
import type { ParseData } from '../src/parse/index.ts';
import { PARSE_FORMAT_TYPES } from '../src/parse/options.ts';
import type { Fetcher } from '../src/web/fetch/types.ts';
import { scrape } from '../src/web/scrape.ts';
import { ScrapeRequestSchema, type ScrapeRequest } from '../src/web/scrape-options.ts';
import { maxCharsField, offsetField } from './text-budget.ts';
import { defineTool, type AnyToolDefinition, type ToolResult } from './types.ts';


export interface ScrapeToolDeps {
  fetcher: Fetcher;
  runner: ParseRunner;
  /** The browser engine: `actions`, the `screenshot` format and rendering, for keyed callers only. */
  browser?: BrowserService;
}

/** The formats named by type alone; `json` takes a prompt and a schema (as in the parse tool). */
const OFFERED_FORMATS = PARSE_FORMAT_TYPES.filter((t) => t !== 'json');

const shape = ScrapeRequestSchema.shape;

export const ScrapeToolInputSchema = ScrapeRequestSchema.extend({
  url: shape.url.describe('The public http(s) URL to scrape: a web page or a document (PDF, DOCX, XLSX …).'),
  formats: shape.formats.meta({
    description: 'Outputs to return; default ["markdown"]. `summary` summarises the page; `json` takes an optional prompt and schema.',
    items: {
      anyOf: [
        { type: 'string', enum: [...OFFERED_FORMATS] },
        { type: 'object', properties: { type: { type: 'string', enum: [...OFFERED_FORMATS] } }, required: ['type'] },
        {
          type: 'object',
          description: 'A screenshot of the rendered page (needs an API key): a URL valid 24 hours.',
          properties: {
            type: { type: 'string', const: 'screenshot' },
            fullPage: { type: 'boolean' },
            quality: { type: 'integer', minimum: 1, maximum: 100, description: 'JPEG quality; PNG without it.' },
            viewport: { type: 'object', properties: { width: { type: 'integer' }, height: { type: 'integer' } } },
          },
          required: ['type'],
        },
        {
          type: 'object',
          properties: {
            type: { type: 'string', const: 'json' },
            prompt: { type: 'string', maxLength: 10_000, description: 'What to extract.' },
            schema: { type: 'object', description: 'A JSON Schema the extracted object must match.' },
          },
          required: ['type'],
        },
      ],
    },
  }),
  maxChars: maxCharsField('Most characters of markdown returned by this call; call again with `offset` for the rest.'),
  offset: offsetField,
});

export type ScrapeToolInput = z.output<typeof ScrapeToolInputSchema>;

/** The markdown slice, a continuation note when more remains, and any warning. */
export function scrapeToolResult(data: ParseData, url: string, offset: number, maxChars: number): ToolResult {
  const markdown = data.markdown;
  const lines: string[] = [];
  let structured: Record<string, unknown> = { ...data };
  if (markdown !== undefined) {
    const end = Math.min(markdown.length, offset + maxChars);
    lines.push(markdown.slice(offset, end));
    structured = { ...data, markdown: markdown.slice(offset, end) };
    if (end < markdown.length) {
      structured.continuation = { offset, returnedChars: end - offset, totalChars: markdown.length, nextOffset: end };
      lines.push(
        `\n---\n[folio continuation] Characters ${offset}–${end} of ${markdown.length} shown. To read on, call \`scrape\` with {"url": ${JSON.stringify(url)}, "offset": ${end}} and the same options (the page is fetched again).`,
      );
    } else if (offset > 0 && offset >= markdown.length) {
      lines.push(`[folio] offset ${offset} is past the end of the markdown (${markdown.length} characters).`);
    }
  } else {
    lines.push(JSON.stringify({ ...data }, null, 2).slice(0, maxChars));
  }
  if (data.metadata.error) lines.push(`\n[folio] ${String(data.metadata.error)}`);
  if (data.warning) lines.push(`\n[folio warning] ${data.warning}`);
  return { text: lines.join('\n'), structured };
}

export function scrapeTool(deps: ScrapeToolDeps): AnyToolDefinition {
  return defineTool({
    name: 'scrape',
    title: 'Scrape a URL',
    description:
      'Fetch one public web page or online document (PDF, DOCX, XLSX, …) by URL and return its content as clean markdown (optionally html, rawHtml, links, images, a `summary`, or `json` extracted to a schema). Use it for URLs reachable on the public internet; for a local file or one that is not publicly reachable, use `parse` instead. With an API key, pages that need JavaScript are rendered in a browser, `actions` (click, write, press, scroll, wait, executeJavascript …) run before the page is read and the `screenshot` format returns an image URL, and `metadata.scrapeId` can be passed to `interact` to keep driving the page. Long results are cut at `maxChars`; call again with `offset` to read on.',
    inputSchema: ScrapeToolInputSchema,
    annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
    keyless: true,
    async run(input, ctx) {
      const { maxChars, offset, ...request } = input;
      // Rendering with actions and screenshots is for keyed callers (a team owns the page afterwards).
      const teamId = ctx.caller.teamId;
      const browser = teamId !== undefined ? deps.browser : undefined;
      const data = await scrape(request as ScrapeRequest, { fetcher: deps.fetcher, runner: deps.runner, ...(browser ? { browser } : {}) }, {
        signal: ctx.signal,
        onProgress: (p) => ctx.progress({ progress: p.done, total: p.total, message: `${p.unit} ${p.done} of ${p.total}` }),
        ...(ctx.caller.teamId ? { teamId: ctx.caller.teamId } : {}),
        ...(browser && teamId !== undefined ? { holdFor: { teamId, ...(ctx.caller.keyId ? { keyId: ctx.caller.keyId } : {}) } } : {}),
      });
      const scrapeId = data.metadata.scrapeId;
      const interactable = browser !== undefined && typeof scrapeId === 'string' && (request as ScrapeRequest).zeroDataRetention !== true;
      if (interactable && teamId !== undefined) browser.interact.remember(scrapeId, teamId, String(data.metadata.url ?? request.url), (request as ScrapeRequest).actions ?? []);
      const result = scrapeToolResult(data, request.url, offset, maxChars);
      const shots = [...(data.screenshot !== undefined ? [data.screenshot] : []), ...(data.actions?.screenshots ?? [])].filter((u) => !u.startsWith('data:'));
      if (shots.length > 0) result.text += `\n\n[folio] Screenshot${shots.length > 1 ? 's' : ''}: ${shots.join(' ')}`;
      if (data.actions?.javascriptReturns.length) result.text += `\n\n[folio] JavaScript returned: ${JSON.stringify(data.actions.javascriptReturns).slice(0, 4000)}`;
      if (interactable) result.text += `\n\n[folio] scrapeId: ${scrapeId} (pass it to \`interact\` to keep driving this page)`;
      return result;
    },
  });
}
