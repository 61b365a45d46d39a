/**
 * The agent's tools: folio's search, map and scrape (docs/agent.md "Tools"). A call is checked
 * before it runs — a name outside the list, unreadable arguments, a URL outside the job's
 * constraints, a price over the credits left — and refused with a reason the model reads; what
 * runs is charged, and its result is cut to the result budget and handed back as labelled data.
 */
import { documentBlock, type ToolSpec } from '../llm/index.ts';
import { isServiceError } from '../errors.ts';
import { cleanUrl, refusal, type UrlConstraints } from './constraints.ts';
import type { AgentOperations, Found } from './operations.ts';
import type { Budgets, Spent } from './trace.ts';

export const MAX_SEARCH_RESULTS = 10;
export const MAX_MAP_LINKS = 100;
export const MAX_ACTIONS = 20;

const SEARCH: ToolSpec = {
  name: 'search',
  description: 'Search the web. Returns result URLs with titles and snippets (untrusted data).',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string', description: 'The search query.' }, limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS } },
    required: ['query'],
    additionalProperties: false,
  },
};

const MAP: ToolSpec = {
  name: 'map',
  description: "List the URLs of a web site (from its sitemap and links), optionally ranked by a search term. Returns URLs with titles (untrusted data).",
  parameters: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'The site or section to map.' },
      search: { type: 'string', description: 'Rank the URLs by these words.' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_MAP_LINKS },
    },
    required: ['url'],
    additionalProperties: false,
  },
};

const SCRAPE: ToolSpec = {
  name: 'scrape',
  description:
    'Fetch one page or document (HTML, PDF, DOCX, spreadsheets …) and return its text as markdown with its links (untrusted data). With `actions`, the page is rendered in a browser and the actions (click, write, press, wait, scroll) run first.',
  parameters: {
    type: 'object',
    properties: {
      url: { type: 'string' },
      actions: {
        type: 'array',
        maxItems: MAX_ACTIONS,
        items: { type: 'object', description: 'A browser action, e.g. {"type":"click","selector":"#more"} or {"type":"wait","milliseconds":500}.' },
      },
    },
    required: ['url'],
    additionalProperties: false,
  },
};

/** The tools a job offers: search only when a backend is configured and the job is not constrained to its URLs. */
export function toolsFor(ops: AgentOperations, constraints: UrlConstraints): ToolSpec[] {
  return [...(ops.search && !constraints.strict ? [SEARCH] : []), MAP, SCRAPE];
}

export interface ToolOutcome {
  /** What the model is shown (already cut to the budget). */
  content: string;
  /** For the trace. */
  ok: boolean;
  urls: string[];
  credits: number;
  refused?: string;
  error?: string;
  resultChars: number;
}

export interface ToolEnv {
  ops: AgentOperations;
  constraints: UrlConstraints;
  budgets: Budgets;
  spent: Spent;
  offered: readonly ToolSpec[];
  signal: AbortSignal;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… cut: ${text.length - max} more characters not shown (result budget)]`;
}

function refused(reason: string, urls: string[] = []): ToolOutcome {
  return { content: `Refused: ${reason}`, ok: false, urls, credits: 0, refused: reason, resultChars: 0 };
}

function listing(found: Found[], label: string, max: number): string {
  const lines = found.map((f, i) => `${i + 1}. ${f.url}${f.title ? ` — ${f.title}` : ''}${f.description ? `\n   ${f.description}` : ''}`).join('\n');
  return documentBlock(cut(lines || '(nothing found)', max), label);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A tool call in a few words, for progress notifications: `scrape https://…`, `search "…"`. */
export function describeCall(name: string, parameters: unknown): string {
  const args = isRecord(parameters) ? parameters : {};
  const tool = name.slice(0, 64);
  if (typeof args.url === 'string') return `${tool} ${args.url.slice(0, 2048)}${Array.isArray(args.actions) && args.actions.length > 0 ? ` (${args.actions.length} browser action(s))` : ''}`;
  if (typeof args.query === 'string') return `${tool} ${JSON.stringify(args.query.slice(0, 200))}`;
  return tool;
}

/** Runs one tool call the model asked for, within the job's constraints and budgets. */
export async function runTool(name: string, rawArgs: string, env: ToolEnv): Promise<ToolOutcome> {
  if (!env.offered.some((t) => t.name === name)) {
    return refused(`there is no tool named ${JSON.stringify(name.slice(0, 64))}; the tools are ${env.offered.map((t) => t.name).join(', ')}`);
  }
  let args: unknown;
  try {
    args = JSON.parse(rawArgs);
  } catch {
    return refused('the arguments are not valid JSON');
  }
  if (!isRecord(args)) return refused('the arguments must be a JSON object');
  const left = env.budgets.maxCredits - env.spent.credits;
  const minimum = env.ops.minimum[name as keyof AgentOperations['minimum']];
  if (minimum > left) return refused(`the job's credit budget (maxCredits ${env.budgets.maxCredits}) has ${left} credit(s) left, and ${name} costs at least ${minimum}`);
  const max = env.budgets.resultChars;
  try {
    if (name === 'search') {
      const query = typeof args.query === 'string' ? args.query.trim().slice(0, 500) : '';
      if (!query || !env.ops.search) return refused('`query` must be a non-empty string');
      const limit = typeof args.limit === 'number' ? Math.min(MAX_SEARCH_RESULTS, Math.max(1, Math.floor(args.limit))) : 5;
      const res = await env.ops.search(query, limit, env.signal);
      const content = listing(res.value, `kind="search results" query=${JSON.stringify(query)}`, max);
      return { content, ok: true, urls: res.value.map((f) => f.url), credits: res.credits, resultChars: content.length };
    }
    const url = cleanUrl(args.url);
    if (!url) return refused('`url` must be an absolute http:// or https:// URL without credentials');
    const outside = refusal(url, env.constraints);
    if (outside) return refused(outside, [url]);
    if (name === 'map') {
      const search = typeof args.search === 'string' ? args.search.slice(0, 500) : undefined;
      const limit = typeof args.limit === 'number' ? Math.min(MAX_MAP_LINKS, Math.max(1, Math.floor(args.limit))) : 50;
      const res = await env.ops.map(url, search, limit, env.signal);
      // Under strictConstrainToURLs the model is only shown URLs it may visit.
      const links = res.value.filter((l) => refusal(l.url, env.constraints) === undefined);
      const content = listing(links, `kind="site map" source=${JSON.stringify(url)}`, max);
      return { content, ok: true, urls: [url], credits: res.credits, resultChars: content.length };
    }
    const actions = Array.isArray(args.actions) ? args.actions.slice(0, MAX_ACTIONS) : undefined;
    const res = await env.ops.scrape(url, { ...(actions ? { actions } : {}), creditsLeft: left }, env.signal);
    const data = res.value;
    const finalUrl = data.metadata.url ?? url;
    const links = (data.links ?? []).slice(0, 50).join('\n');
    const text = `${data.markdown ?? ''}${links ? `\n\nLinks on the page:\n${links}` : ''}`;
    const content = documentBlock(cut(text, max), `kind="page" source=${JSON.stringify(finalUrl)} status="${data.metadata.statusCode}"`);
    return { content, ok: true, urls: finalUrl === url ? [url] : [url, finalUrl], credits: res.credits, resultChars: content.length };
  } catch (err) {
    if (env.signal.aborted) throw err;
    const message = isServiceError(err) ? `${err.code}: ${err.message}` : 'the operation failed unexpectedly';
    return { content: `Error: ${message}`, ok: false, urls: typeof args.url === 'string' ? [args.url.slice(0, 2048)] : [], credits: 0, error: message, resultChars: 0 };
  }
}
