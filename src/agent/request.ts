/**
 * The request bodies of POST /v2/agent and POST /v2/extract (the Firecrawl SDK's
 * prepareAgentPayload / prepareExtractPayload shapes), validated with zod. Fields the SDK sends
 * that folio has no use for (`integration`, `origin`, `effort`, `threatProtection`, …) are
 * accepted and named in the answer's `warning`.
 */
import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import { HttpUrlSchema } from '../web/map.ts';
import { parseScrapeOptions, type ScrapeOptions } from '../web/scrape-options.ts';
import { parseBody, unknownFields, unknownFieldsWarning } from '../web/validate.ts';
import { WebhookSchema } from '../web/webhooks/index.ts';

const JsonSchemaObject = z.record(z.string(), z.unknown());

/**
 * The agent's `webhook` (the SDK's AgentWebhookConfig): a URL or `{url, headers, metadata, events}`
 * whose events may also name `action` and `cancelled`; folio delivers `started`, `completed` and
 * `failed` (docs/agent.md), so the others are accepted and not sent.
 */
const AgentWebhookSchema = z
  .union([
    z.string(),
    z.object({
      url: z.string(),
      headers: z.record(z.string(), z.string()).optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
      events: z.array(z.enum(['started', 'action', 'completed', 'failed', 'cancelled', 'page'])).max(6).optional(),
    }),
  ])
  .nullish()
  .transform((w, ctx) => {
    if (w === null || w === undefined) return undefined;
    const object = typeof w === 'string' ? { url: w } : { ...w, ...(w.events ? { events: w.events.filter((e) => e === 'started' || e === 'completed' || e === 'failed') } : {}) };
    const parsed = WebhookSchema.safeParse(object.events && object.events.length === 0 ? { ...object, events: ['completed'] } : object);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'invalid webhook' });
      return z.NEVER;
    }
    return parsed.data;
  });

/** Fields the SDK or firecrawl-mcp send that folio accepts and does not act on. */
const IGNORED = ['integration', 'origin', 'effort', 'threatProtection', 'auditMetadata', 'threadId', 'mode', 'exchange', 'agent', 'systemPrompt', 'allowExternalLinks', 'ignoreInvalidURLs'];

export const AgentRequestSchema = z.object({
  prompt: z.string({ error: '`prompt` is required and must be a string' }).trim().min(1, 'must not be empty').max(10_000),
  urls: z.array(HttpUrlSchema).max(100).optional(),
  schema: JsonSchemaObject.optional(),
  maxCredits: z.number().int().min(1).optional(),
  strictConstrainToURLs: z.boolean().default(false),
  webhook: AgentWebhookSchema,
  /** Any model name is accepted and mapped to the configured MODEL_NAME (docs/agent.md). */
  model: z.string().max(256).optional(),
  /** extract's name (the SDK's agent types have none): `sources: {field: [page URLs]}` in the status. */
  showSources: z.boolean().default(false),
  /** docs/agent.md "Zero data retention": the answer and trace stay in memory and are handed out once. */
  zeroDataRetention: z.boolean().default(false),
});
export type AgentRequest = z.output<typeof AgentRequestSchema>;

/** An extract URL: a page, or `https://host/path/*` for the pages under it (found with map). */
export interface ExtractTarget {
  url: string;
  wildcard: boolean;
}

const ExtractUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .transform((raw, ctx): ExtractTarget => {
    const wildcard = raw.endsWith('/*');
    const base = wildcard ? raw.slice(0, -1) : raw;
    const parsed = HttpUrlSchema.safeParse(base);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http:// or https:// URL, optionally ending in /*' });
      return z.NEVER;
    }
    return { url: parsed.data, wildcard };
  });

export const ExtractRequestSchema = z
  .object({
    urls: z.array(ExtractUrlSchema).max(100).default([]),
    prompt: z.string().trim().max(10_000).optional(),
    schema: JsonSchemaObject.optional(),
    enableWebSearch: z.boolean().default(false),
    showSources: z.boolean().default(false),
    scrapeOptions: z.unknown().optional(),
    webhook: AgentWebhookSchema,
    zeroDataRetention: z.boolean().default(false),
  })
  .refine((r) => r.urls.length > 0 || r.enableWebSearch, { message: 'give `urls`, or set `enableWebSearch: true` to find pages with the search backend', path: ['urls'] })
  .refine((r) => (r.prompt !== undefined && r.prompt !== '') || r.schema !== undefined, { message: 'give a `prompt`, a `schema`, or both', path: ['prompt'] });

export type ExtractRequest = Omit<z.output<typeof ExtractRequestSchema>, 'scrapeOptions'> & { scrapeOptions?: ScrapeOptions };

function warningFor(body: unknown, known: string[]): string | undefined {
  const unknown = unknownFields(body, known).filter((f) => !IGNORED.includes(f));
  const ignored = typeof body === 'object' && body !== null ? IGNORED.filter((f) => f in body) : [];
  const parts = [unknownFieldsWarning([...unknown, ...ignored])].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

export function parseAgentRequest(body: unknown): { request: AgentRequest; warning?: string } {
  const request = parseBody(AgentRequestSchema, body, 'agent');
  if (request.strictConstrainToURLs && (request.urls ?? []).length === 0) {
    throw new ServiceError('BAD_REQUEST', 'Invalid agent request: `strictConstrainToURLs` needs `urls` (the pages the agent may visit).');
  }
  const warning = warningFor(body, Object.keys(AgentRequestSchema.shape));
  return warning ? { request, warning } : { request };
}

export function parseExtractRequest(body: unknown): { request: ExtractRequest; warning?: string } {
  const parsed = parseBody(ExtractRequestSchema, body, 'extract');
  const { scrapeOptions, ...rest } = parsed;
  const request: ExtractRequest = scrapeOptions === undefined ? rest : { ...rest, scrapeOptions: parseScrapeOptions(scrapeOptions) };
  const warning = warningFor(body, ['urls', 'prompt', 'schema', 'enableWebSearch', 'showSources', 'scrapeOptions', 'webhook', 'zeroDataRetention']);
  return warning ? { request, warning } : { request };
}
