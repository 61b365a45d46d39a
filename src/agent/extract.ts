/**
 * Extract (docs/agent.md "Extract"): a bounded, non-exploring job on the agent's machinery. The
 * pages are fixed up front — each listed URL, the pages a `/*` URL's map finds under it, the
 * search results for the prompt with `enableWebSearch` — then each is scraped and the LLM extracts
 * from it (src/llm extractJson, the schema's `required` lifted per page), and the pages' answers
 * are merged and validated against the schema. No page can add pages: links are not followed.
 * Each page costs its scrape price plus the `json` surcharge; pages stop when the credits do.
 */
import { checkAnswer, extractJson, mergeExtractions, withoutRequired, type LlmRun } from '../llm/index.ts';
import { isServiceError } from '../errors.ts';
import type { AgentOperations } from './operations.ts';
import type { ExtractRequest } from './request.ts';
import { topFields } from './sources.ts';
import { describeCall } from './tools.ts';
import type { Budgets, Spent, Trace } from './trace.ts';

/** Pages one `/*` URL expands to at most. */
export const WILDCARD_PAGES = 20;
/** Search results added with `enableWebSearch`. */
export const WEB_SEARCH_PAGES = 5;

export interface ExtractDeps {
  run: LlmRun;
  ops: AgentOperations;
  budgets: Budgets;
  spent: Spent;
  trace: Trace;
  signal: AbortSignal;
  /** The `json` surcharge per page (FOLIO_PRICE_JSON). */
  jsonPrice: number;
  onStep(): Promise<void>;
  /** What the job is doing now, for its progress listeners (MCP progress notifications). */
  report(message: string): void;
}

export interface ExtractResult {
  data: unknown;
  sources?: Record<string, string[]>;
  warning?: string;
}

function under(url: string, base: string): boolean {
  try {
    const u = new URL(url);
    const b = new URL(base);
    const prefix = b.pathname.endsWith('/') ? b.pathname : `${b.pathname}/`;
    return u.origin === b.origin && (u.pathname === b.pathname || u.pathname.startsWith(prefix));
  } catch {
    return false;
  }
}

async function timed<T>(deps: ExtractDeps, tool: string, parameters: unknown, work: () => Promise<{ value: T; credits: number; urls: string[] }>): Promise<T | undefined> {
  const id = `${tool}_${deps.spent.steps + 1}`;
  const t0 = Date.now();
  deps.trace.emit({ type: 'tool_call.started', toolCallId: id, toolName: tool, parameters });
  deps.report(describeCall(tool, parameters));
  try {
    const r = await work();
    deps.spent.credits += r.credits;
    deps.spent.steps++;
    deps.trace.emit({ type: 'tool_call.finished', toolCallId: id, toolName: tool, durationMs: Date.now() - t0, result: { ok: true, urls: r.urls, credits: r.credits } });
    await deps.onStep();
    return r.value;
  } catch (err) {
    if (deps.signal.aborted) throw err;
    deps.spent.steps++;
    const message = isServiceError(err) ? `${err.code}: ${err.message}` : 'the operation failed unexpectedly';
    deps.trace.emit({ type: 'tool_call.finished', toolCallId: id, toolName: tool, durationMs: Date.now() - t0, result: { ok: false, urls: [], credits: 0, error: message } });
    await deps.onStep();
    return undefined;
  }
}

export async function runExtract(req: ExtractRequest, deps: ExtractDeps): Promise<ExtractResult> {
  const warnings: string[] = [];
  const pages: string[] = [];
  const add = (u: string) => {
    if (!pages.includes(u)) pages.push(u);
  };
  for (const target of req.urls) {
    if (!target.wildcard) {
      add(target.url);
      continue;
    }
    const links = await timed(deps, 'map', { url: target.url }, async () => {
      const r = await deps.ops.map(target.url, undefined, 1000, deps.signal);
      return { ...r, urls: [target.url] };
    });
    const found = (links ?? []).map((l) => l.url).filter((u) => under(u, target.url));
    if (found.length > WILDCARD_PAGES) warnings.push(`${target.url}* matched ${found.length} pages; the first ${WILDCARD_PAGES} were read.`);
    found.slice(0, WILDCARD_PAGES).forEach(add);
    if (found.length === 0) add(target.url);
  }
  if (req.enableWebSearch) {
    const search = deps.ops.search;
    if (!search) warnings.push('`enableWebSearch` was ignored: no search backend is configured (SEARXNG_ENDPOINT or BRAVE_API_KEY).');
    else {
      const query = (req.prompt ?? JSON.stringify(req.schema)).slice(0, 300);
      const hits = await timed(deps, 'search', { query }, async () => {
        const r = await search(query, WEB_SEARCH_PAGES, deps.signal);
        return { ...r, urls: r.value.map((h) => h.url) };
      });
      (hits ?? []).forEach((h) => add(h.url));
    }
  }
  const pageSchema = req.schema ? (withoutRequired(req.schema) as Record<string, unknown>) : undefined;
  let merged: unknown = null;
  const sources: Record<string, string[]> = {};
  let read = 0;
  for (const url of pages) {
    deps.signal.throwIfAborted();
    const pagePrice = deps.ops.minimum.scrape + deps.jsonPrice;
    if (deps.spent.credits + pagePrice > deps.budgets.maxCredits) {
      warnings.push(`The credit budget (${deps.budgets.maxCredits}) ran out: ${pages.length - read} page(s) were not read.`);
      break;
    }
    if (deps.spent.tokens >= deps.budgets.maxTokens) {
      warnings.push(`The token budget (${deps.budgets.maxTokens}) ran out: ${pages.length - read} page(s) were not read.`);
      break;
    }
    read++;
    const page = await timed(deps, 'scrape', { url }, async () => {
      const creditsLeft = deps.budgets.maxCredits - deps.spent.credits - deps.jsonPrice;
      const r = await deps.ops.scrape(url, { ...(req.scrapeOptions ? { scrapeOptions: req.scrapeOptions } : {}), creditsLeft }, deps.signal);
      return { ...r, urls: [url] };
    });
    if (!page) {
      warnings.push(`${url} could not be read (see the trace).`);
      continue;
    }
    const text = page.markdown ?? '';
    const extracted = await extractJson(deps.run, text, { ...(req.prompt ? { prompt: req.prompt } : {}), ...(pageSchema ? { schema: pageSchema } : {}) });
    deps.spent.credits += deps.jsonPrice;
    deps.trace.emit({ type: 'progress.reported', phase: 'working', message: `extracted from ${url}`, url });
    await deps.onStep();
    deps.report(`extracted from ${url}`);
    if (extracted.json === null || extracted.json === undefined) continue;
    merged = mergeExtractions(merged, extracted.json);
    for (const field of topFields(extracted.json)) (sources[field] ??= []).push(page.metadata.url ?? url);
  }
  const checked = checkAnswer(JSON.stringify(merged ?? {}), req.schema, false);
  if (checked.problems.length > 0) warnings.push(`The merged answer does not match the schema: ${checked.problems.join('; ')}.`);
  return {
    data: merged ?? {},
    ...(req.showSources ? { sources } : {}),
    ...(warnings.length > 0 ? { warning: warnings.join(' ') } : {}),
  };
}
