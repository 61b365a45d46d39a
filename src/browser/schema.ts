/**
 * The browser parts of a scrape request, validated with zod: the `screenshot` format object and
 * the `actions` list, in the shapes of Firecrawl v2 (interface-v2 "actions"; the Firecrawl JS
 * SDK's ScreenshotFormat and ActionOption types).
 */
import { z } from 'zod';

/** Actions in one request. */
export const MAX_ACTIONS = 50;
/** One `wait` action's milliseconds. */
export const MAX_WAIT_MS = 30_000;
/** All `wait` milliseconds of one request together. */
export const MAX_TOTAL_WAIT_MS = 60_000;
/** A `write` action's text, an `executeJavascript` script. */
const MAX_TEXT = 10_000;
const MAX_SCRIPT = 100_000;

const Viewport = z.object({
  width: z.number().int().min(100).max(7680),
  height: z.number().int().min(100).max(4320),
});

const screenshotFields = {
  fullPage: z.boolean().optional(),
  /** JPEG quality 1–100; without it the image is a PNG. */
  quality: z.number().int().min(1).max(100).optional(),
  viewport: Viewport.optional(),
};

export const ScreenshotFormatSchema = z.object({ type: z.literal('screenshot'), ...screenshotFields });
export type ScreenshotFormat = z.output<typeof ScreenshotFormatSchema>;

const selector = z.string().min(1).max(2_000);

const WaitAction = z
  .object({ type: z.literal('wait'), milliseconds: z.number().int().min(1).max(MAX_WAIT_MS).optional(), selector: selector.optional() })
  .refine((a) => (a.milliseconds === undefined) !== (a.selector === undefined), { message: 'a `wait` action needs exactly one of `milliseconds` or `selector`' });

export const ActionSchema = z.discriminatedUnion(
  'type',
  [
    WaitAction,
    z.object({ type: z.literal('click'), selector, all: z.boolean().optional() }),
    z.object({ type: z.literal('write'), text: z.string().max(MAX_TEXT) }),
    z.object({ type: z.literal('press'), key: z.string().min(1).max(64) }),
    z.object({ type: z.literal('scroll'), direction: z.enum(['up', 'down']).default('down'), selector: selector.optional() }),
    z.object({ type: z.literal('screenshot'), ...screenshotFields }),
    z.object({ type: z.literal('scrape') }),
    z.object({ type: z.literal('executeJavascript'), script: z.string().min(1).max(MAX_SCRIPT) }),
    z.object({
      type: z.literal('pdf'),
      format: z.enum(['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger']).optional(),
      landscape: z.boolean().optional(),
      scale: z.number().min(0.1).max(2).optional(),
    }),
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? 'an action `type` is one of wait, click, write, press, scroll, screenshot, scrape, executeJavascript, pdf' : undefined) },
);
export type Action = z.output<typeof ActionSchema>;

/** The `actions` list: at most MAX_ACTIONS, their waits together at most MAX_TOTAL_WAIT_MS. */
export const ActionsSchema = z
  .array(ActionSchema)
  .max(MAX_ACTIONS)
  .refine((list) => list.reduce((sum, a) => sum + (a.type === 'wait' ? (a.milliseconds ?? 0) : 0), 0) <= MAX_TOTAL_WAIT_MS, {
    message: `the \`wait\` actions together may not exceed ${MAX_TOTAL_WAIT_MS} ms`,
  });

/** `data.actions` (interface-v2): each array in the order of the actions of its kind. */
export interface ActionsResult {
  screenshots: string[];
  scrapes: { url: string; html: string }[];
  javascriptReturns: { type: string; value: unknown }[];
  pdfs: string[];
}

/** What of a scrape request decides whether the browser renders it (structural: src/web's ScrapeOptions fits). */
export interface BrowserWants {
  actions?: readonly unknown[] | undefined;
  formats: readonly { type: string }[];
  waitFor: number;
}

/** `actions`, the `screenshot` format or `waitFor` > 0 need the browser. */
export function needsBrowser(options: BrowserWants): boolean {
  return (options.actions?.length ?? 0) > 0 || options.formats.some((f) => f.type === 'screenshot') || options.waitFor > 0;
}
