/**
 * Which engine answers a scrape (issue 17 §3): the page is always fetched first (plain fetch,
 * cheap); the browser renders it when the request asks for it (`actions`, the `screenshot`
 * format, `waitFor` > 0) or when the fetched HTML is an application shell. What the browser
 * renders goes through the same parse core as what was fetched.
 *
 *   not HTML (a PDF, a DOCX …)       the fetched document; browser options named in a warning
 *   asked for, browser off           actions/screenshot: NOT_CONFIGURED; waitFor: a warning
 *   app shell, browser off or fails  the fetched shell, with the app-shell warning
 */
import type { ScreenshotFormat, Action, ActionsResult } from './schema.ts';
import { needsBrowser } from './schema.ts';
import type { BrowserService } from './index.ts';
import type { SessionOwner } from './sessions.ts';

export interface FetchedPage {
  url: string;
  status: number;
  contentType?: string | undefined;
  body: Buffer;
}

/** The scrape options the browser acts on (src/web's ScrapeOptions fits). */
export interface BrowserScrapeOptions {
  url: string;
  timeout: number;
  skipTlsVerification: boolean;
  mobile: boolean;
  waitFor: number;
  blockAds: boolean;
  zeroDataRetention: boolean;
  /** false, true or RedactPIIOptions: the captures and action results are not redacted. */
  redactPII?: unknown;
  actions?: readonly Action[] | undefined;
  formats: readonly ({ type: string } | ScreenshotFormat)[];
}

export interface EngineChoice {
  /** What the parse core reads: the fetched page, or the rendered DOM. */
  page: FetchedPage;
  /** The Content-Type the parse core is told (the rendered DOM is UTF-8 whatever was served). */
  parseContentType?: string | undefined;
  rendered: boolean;
  /** The rendered page was kept open for interact (the caller releases it if the scrape fails after). */
  held?: boolean;
  screenshot?: string;
  actions?: ActionsResult;
  /** The page is an app shell nobody rendered (the caller adds its warning). */
  shellUnrendered: boolean;
  warnings: string[];
}

export interface EngineInput {
  options: BrowserScrapeOptions;
  fetched: FetchedPage;
  /** The fetched body is an HTML page. */
  html: boolean;
  /** …and only a JavaScript application's shell. */
  appShell: boolean;
  /** Request headers (the `headers` option, Accept-Language) for the page's origin. */
  headers: Record<string, string>;
  /** Time left of the request's timeout. */
  remainingMs: number;
  signal?: AbortSignal | undefined;
  /** A rendered page is kept open for interact under this scrape id and owner (held-pages.ts). */
  hold?: { scrapeId: string; owner: SessionOwner } | undefined;
}

function screenshotFormat(options: BrowserScrapeOptions): ScreenshotFormat | undefined {
  return options.formats.find((f): f is ScreenshotFormat => f.type === 'screenshot');
}

export async function scrapeEngine(browser: BrowserService | undefined, input: EngineInput): Promise<EngineChoice> {
  const { options, fetched } = input;
  const plain: EngineChoice = { page: fetched, rendered: false, shellUnrendered: false, warnings: [] };
  const explicit = (options.actions?.length ?? 0) > 0 || screenshotFormat(options) !== undefined;
  if (!input.html) {
    if (explicit) plain.warnings.push(`\`actions\` and the \`screenshot\` format were ignored: ${fetched.url} is not an HTML page (${fetched.contentType ?? 'no declared type'}), so it was read as a document.`);
    return plain;
  }
  if (!browser || (!needsBrowser(options) && !input.appShell)) return { ...plain, shellUnrendered: input.appShell };
  if (!browser.enabled && !explicit) return { ...plain, shellUnrendered: input.appShell };
  const screenshot = screenshotFormat(options);
  try {
    const page = await browser.render({
      url: options.url,
      headers: input.headers,
      timeoutMs: Math.max(1, input.remainingMs),
      requestTimeoutMs: options.timeout,
      skipTlsVerification: options.skipTlsVerification,
      mobile: options.mobile,
      waitFor: options.waitFor,
      blockAds: options.blockAds,
      actions: options.actions ?? [],
      screenshot,
      zeroDataRetention: options.zeroDataRetention,
      signal: input.signal,
      hold: input.hold,
    });
    const unredacted = options.redactPII !== undefined && options.redactPII !== false && (page.screenshot !== undefined || page.actions !== undefined);
    return {
      page: { url: page.url, status: page.status, contentType: page.servedContentType, body: page.html },
      parseContentType: 'text/html; charset=utf-8',
      rendered: true,
      ...(page.held ? { held: true } : {}),
      ...(page.screenshot !== undefined ? { screenshot: page.screenshot } : {}),
      ...(page.actions ? { actions: page.actions } : {}),
      shellUnrendered: false,
      warnings: unredacted ? ['`redactPII` applies to the page\'s formats (markdown, html, links …), not to `screenshot` nor to the `actions` results (screenshots, PDFs, scraped html, JavaScript returns), which show the page as it was.'] : [],
    };
  } catch (err) {
    // Asked for: the browser's answer is the scrape's. Only guessed (an app shell): keep the fetched page.
    if (needsBrowser(options)) throw err;
    return { ...plain, shellUnrendered: true, warnings: [`The browser could not render it: ${err instanceof Error ? err.message : 'unknown error'}`] };
  }
}
