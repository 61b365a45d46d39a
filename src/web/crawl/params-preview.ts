/**
 * `POST /v2/crawl/params-preview` (the SDK's `crawlParamsPreview(url, prompt)`): Firecrawl asks a
 * language model to turn the prompt into crawl options. folio has no language model (the LLM
 * provider is not built yet), so it does what can be done without one, and says so: it reads the
 * explicit parts of the prompt — paths written as `/docs`, page counts, a depth, and a few fixed
 * phrases (subdomains, external links, the whole site, the sitemap, query parameters) — and
 * answers `{success, data: {url, …derived options}, warning}`. The warning always names what was
 * understood and that free-form interpretation needs a model. It never invents an option.
 */
import { z } from 'zod';
import { CRAWL_MAX_LIMIT } from './request.ts';
import { HttpUrlSchema } from '../map.ts';
import { parseBody } from '../validate.ts';

const PreviewRequestSchema = z.object({
  url: HttpUrlSchema,
  prompt: z.string({ error: '`prompt` is required: what to crawl, in words' }).trim().min(1, 'must not be empty').max(10_000),
});

/** The crawl options Firecrawl's preview may answer (its response type), as far as folio derives them. */
export interface CrawlParamsPreview {
  url: string;
  includePaths?: string[];
  excludePaths?: string[];
  maxDiscoveryDepth?: number;
  crawlEntireDomain?: boolean;
  allowExternalLinks?: boolean;
  allowSubdomains?: boolean;
  sitemap?: 'skip' | 'include' | 'only';
  ignoreQueryParameters?: boolean;
  limit?: number;
}

export interface CrawlParamsPreviewResult {
  data: CrawlParamsPreview;
  warning: string;
}

const NO_MODEL =
  'Interpreting a crawl prompt in free form needs a language model, which this folio server does not have yet (Firecrawl-compatible OPENAI_BASE_URL / OLLAMA_BASE_URL support is still to come)';

/** A path written in the prompt (`/docs`, `/blog/2024/`), not part of a URL or a fraction. */
const PATH = /(?<![\w:/.])\/[A-Za-z0-9][\w\-./]*/g;
const EXCLUDE_CUE = /\b(?:exclud\w*|except|skip\w*|ignor\w*|avoid\w*|without|not|no|but not)\s*(?:the\s+)?(?:pages?\s+(?:under|in)\s+)?$/i;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `/docs/` → `^/docs(/.*)?$`: the path and what lies below it. */
function pathPattern(path: string): string {
  const stem = path.replace(/[.,;:!?)]+$/, '').replace(/\/+$/, '');
  return `^${escapeRegex(stem || '/')}(/.*)?$`;
}

function derive(prompt: string, understood: string[]): Omit<CrawlParamsPreview, 'url'> {
  const out: Omit<CrawlParamsPreview, 'url'> = {};
  const include: string[] = [];
  const exclude: string[] = [];
  for (const match of prompt.matchAll(PATH)) {
    const before = prompt.slice(Math.max(0, (match.index ?? 0) - 40), match.index);
    const pattern = pathPattern(match[0]);
    (EXCLUDE_CUE.test(before) ? exclude : include).push(pattern);
    understood.push(`${EXCLUDE_CUE.test(before) ? 'excluded' : 'included'} path ${match[0].replace(/[.,;:!?)]+$/, '')}`);
  }
  if (include.length > 0) out.includePaths = [...new Set(include)];
  if (exclude.length > 0) out.excludePaths = [...new Set(exclude)];

  const limit = /\b(?:up to|at most|max(?:imum)?|limit(?: of| to)?|first|only)\s+(\d{1,6})\s*(?:pages?|urls?|links?|results?)?\b/i.exec(prompt) ?? /\b(\d{1,6})\s+(?:pages?|urls?)\b/i.exec(prompt);
  if (limit) {
    out.limit = Math.min(CRAWL_MAX_LIMIT, Math.max(1, Number(limit[1])));
    understood.push(`limit ${out.limit} from "${limit[0].trim()}"`);
  }
  const depth = /\b(?:depth(?: of)?|max(?:imum)? depth(?: of)?)\s+(\d{1,3})\b/i.exec(prompt) ?? /\b(\d{1,3})\s+(?:levels?|clicks?|hops?)(?:\s+deep)?\b/i.exec(prompt);
  if (depth) {
    out.maxDiscoveryDepth = Number(depth[1]);
    understood.push(`maxDiscoveryDepth ${out.maxDiscoveryDepth} from "${depth[0].trim()}"`);
  }
  const flag = <K extends keyof typeof out>(key: K, value: (typeof out)[K], re: RegExp) => {
    const m = re.exec(prompt);
    if (!m) return;
    out[key] = value;
    understood.push(`${String(key)}: ${String(value)} from "${m[0].trim()}"`);
  };
  flag('allowSubdomains', true, /\b(?:include|with|and|all|also|plus)\s+(?:its\s+|the\s+)?subdomains?\b|\bsubdomains? (?:too|as well|included)\b/i);
  flag('allowExternalLinks', true, /\b(?:follow|include|with)\s+(?:the\s+)?external links?\b/i);
  flag('crawlEntireDomain', true, /\b(?:entire|whole|full|complete)\s+(?:site|domain|website)\b/i);
  if (/\b(?:only|just)\s+(?:the\s+)?sitemap\b|\bsitemap only\b/i.test(prompt)) flag('sitemap', 'only', /\b(?:only|just)\s+(?:the\s+)?sitemap\b|\bsitemap only\b/i);
  else flag('sitemap', 'skip', /\b(?:ignore|skip|without|no)\s+(?:the\s+)?sitemaps?\b/i);
  flag('ignoreQueryParameters', true, /\bignor\w*\s+(?:the\s+)?query (?:parameters|params|strings?)\b/i);
  return out;
}

/** Validates `{url, prompt}` (400 naming the field) and derives what the prompt states explicitly. */
export function crawlParamsPreview(body: unknown): CrawlParamsPreviewResult {
  const { url, prompt } = parseBody(PreviewRequestSchema, body, 'crawl params preview');
  const understood: string[] = [];
  const data: CrawlParamsPreview = { url, ...derive(prompt, understood) };
  const warning =
    understood.length > 0
      ? `${NO_MODEL}. folio read only what the prompt states explicitly: ${understood.join('; ')}. Check these options before starting the crawl; anything else the prompt asks for was not applied.`
      : `${NO_MODEL}. The prompt names no path, page count, depth or fixed option folio can read, so these are the defaults: give the crawl options yourself (includePaths, excludePaths, limit, maxDiscoveryDepth, …).`;
  return { data, warning };
}
