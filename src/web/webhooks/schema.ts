/**
 * The `webhook` field of crawl and batch scrape requests (Firecrawl v2 WebhookConfig):
 * a URL, or `{url, headers, metadata, events}`. Normalised to the object form.
 */
import { z } from 'zod';

export const WEBHOOK_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const WebhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine((raw) => {
    try {
      const u = new URL(raw);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  }, 'must be an absolute http:// or https:// URL without credentials');

const WebhookObject = z.object({
  url: WebhookUrl,
  headers: z.record(z.string(), z.string().max(4096)).refine((h) => Object.keys(h).length <= 50, 'at most 50 headers').optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  events: z.array(z.enum(WEBHOOK_EVENTS)).max(4).optional(),
});

export const WebhookSchema = z
  .union([WebhookUrl.transform((url) => ({ url })), WebhookObject])
  .nullish()
  .transform((w) =>
    w
      ? {
          url: w.url,
          headers: 'headers' in w && w.headers ? w.headers : {},
          metadata: 'metadata' in w && w.metadata ? w.metadata : {},
          events: 'events' in w && w.events && w.events.length > 0 ? w.events : [...WEBHOOK_EVENTS],
        }
      : undefined,
  );

export type WebhookConfig = NonNullable<z.output<typeof WebhookSchema>>;
