/**
 * The `search` MCP tool: Firecrawl's search (same fields as `POST /v2/search`) plus `maxChars`,
 * which caps the text a model reads. Keyless (the spec: Search, Scrape and Parse are on /v2/mcp
 * without a credential). Text: a numbered list per source (title, URL, description, and the
 * scraped markdown when `scrapeOptions` asked for it); structuredContent: the whole `data`.
 */
import { z } from 'zod';
import { refineSearchRequest, SearchRequestShape } from '../src/web/search/request.ts';
import type { SearchOperation, SearchResponse } from '../src/web/search/index.ts';
import { maxCharsField } from './text-budget.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

/** Search answers are lists: a shorter default than a document's. */
const SEARCH_MAX_CHARS = 20_000;

/** Loose, like POST /v2/search: fields folio does not know reach the core, which names them in `warning`. */
const SearchToolInput = z
  .looseObject({
    ...SearchRequestShape,
    maxChars: maxCharsField('Most characters of text returned; the list is cut there (structured content stays whole).', { min: 200, fallback: SEARCH_MAX_CHARS }),
  })
  .superRefine(refineSearchRequest);

type Entry = { title?: string; url?: string; text?: string; extra?: string; markdown?: string; error?: string };

function section(heading: string, entries: Entry[]): string {
  if (entries.length === 0) return `${heading}: no results.`;
  const items = entries.map((e, i) => {
    const lines = [`${i + 1}. ${e.title || '(no title)'}`, `   ${e.url ?? ''}`];
    if (e.extra) lines.push(`   ${e.extra}`);
    if (e.text) lines.push(`   ${e.text}`);
    if (e.error) lines.push(`   (not scraped: ${e.error})`);
    if (e.markdown) lines.push('', e.markdown.trim(), '');
    return lines.join('\n');
  });
  return `${heading}:\n\n${items.join('\n\n')}`;
}

/** The readable text of a search answer, cut at maxChars with a note saying so. */
export function searchText(query: string, response: SearchResponse, maxChars: number): string {
  const parts: string[] = [];
  const { web, news, images } = response.data;
  if (web) {
    parts.push(
      section(
        `Web results for "${query}"`,
        web.map((r) => {
          const error = r.metadata && 'error' in r.metadata && typeof r.metadata.error === 'string' ? r.metadata.error : undefined;
          return { title: r.title, url: r.url, text: r.description, ...(r.markdown ? { markdown: r.markdown } : {}), ...(error ? { error } : {}) };
        }),
      ),
    );
  }
  if (news) parts.push(section(`News for "${query}"`, news.map((r) => ({ title: r.title, url: r.url, text: r.snippet, ...(r.date ? { extra: r.date } : {}) }))));
  if (images) parts.push(section(`Images for "${query}"`, images.map((r) => ({ title: r.title, url: r.imageUrl, extra: `on ${r.url}` }))));
  if (response.warning) parts.push(`Note: ${response.warning}`);
  const text = parts.join('\n\n');
  if (text.length <= maxChars) return text;
  const note = `\n\n[Cut at ${maxChars} of ${text.length} characters: raise maxChars or ask for fewer results.]`;
  return text.slice(0, Math.max(0, maxChars - note.length)) + note;
}

export function createSearchTool(search: SearchOperation): AnyToolDefinition {
  return defineTool({
    name: 'search',
    title: 'Search the web',
    description:
      'Search the web (sources: web, news, images) through the search engine this server is configured with, and optionally scrape each web result ' +
      '(scrapeOptions: {formats: ["markdown"]}) to read the pages in the same call. Use it to find pages when you have no URL; use scrape when you have one. ' +
      'tbs filters by time (qdr:h, qdr:d, qdr:w, qdr:m, qdr:y), location or country localises, limit is per source (default 5, at most 100).',
    inputSchema: SearchToolInput,
    annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
    keyless: true,
    async run(input, ctx) {
      const { maxChars, ...request } = input;
      const response = await search(request, { signal: ctx.signal });
      return {
        text: searchText(request.query, response, maxChars),
        structured: { ...response.data, ...(response.warning ? { warning: response.warning } : {}) },
      };
    },
  });
}
