/**
 * The printed web pages of bench/pdf/printed.ts: each page of the shared HTML corpus
 * (`../shared/corpus/html/`: readability's `*\/source.html`, defuddle's `fixtures/*.html`,
 * markitdown's `*.html`) printed by the system Chromium (playwright-core, `page.pdf()` = CDP
 * `Page.printToPDF`, A4, default margins, no backgrounds) into `bench/.cache/printed/` (gitignored),
 * beside its truth (printed-truth.ts) read from the same DOM after printing.
 *
 * Offline: every request the page makes is aborted (stylesheets, images and fonts of other hosts
 * fail, as they would on a machine without network), page scripts are off, inline CSS applies.
 * Each page has 30 s; a page that does not print is recorded as failed and left out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { CORPUS_DIR } from '../../test/helpers/corpus.ts';
import { entryCache, type CachedDocument } from './entry-cache.ts';
import { TRUTH_SCRIPT, type PageTruth } from './printed-truth.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PRINTED_DIR = path.join(here, '..', '.cache', 'printed');
const HTML_DIR = path.join(CORPUS_DIR, 'html');
/** Bumped when the printing or the truth changes: older cache entries are printed again. */
const CACHE_VERSION = 4;
const PAGE_SECONDS = 30;

export interface PrintedPage {
  name: string;
  /** The HTML printed, relative to the corpus. */
  source: string;
  pdf: string;
  pages: number;
  truth: PageTruth;
}

interface CacheEntry extends CachedDocument {
  truth?: PageTruth;
}

/** Every HTML page of the corpus, as [name, absolute path], sorted by name. */
export function corpusPages(): [string, string][] {
  const out: [string, string][] = [];
  const readability = path.join(HTML_DIR, 'readability');
  for (const dir of fs.readdirSync(readability)) {
    const file = path.join(readability, dir, 'source.html');
    if (fs.existsSync(file)) out.push([`readability-${dir}`, file]);
  }
  const defuddle = path.join(HTML_DIR, 'defuddle', 'fixtures');
  for (const file of fs.readdirSync(defuddle)) if (file.endsWith('.html')) out.push([`defuddle-${file.replace(/\.html$/u, '')}`, path.join(defuddle, file)]);
  const markitdown = path.join(HTML_DIR, 'markitdown');
  for (const file of fs.readdirSync(markitdown)) if (file.endsWith('.html')) out.push([`markitdown-${file.replace(/\.html$/u, '')}`, path.join(markitdown, file)]);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

export function pdfPages(bytes: Buffer): number {
  return bytes.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/gu)?.length ?? 0;
}

export function withTimeout<T>(promise: Promise<T>, seconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: over ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** `page.pdf()`'s options. */
export type PDFOptions = NonNullable<Parameters<Page['pdf']>[0]>;

/**
 * How a page is set before it is printed (bench:paper): a stylesheet added after the page's own,
 * a script run in the page first (it may answer what the PDF options need, e.g. the running
 * head's text) and the PDF options taken from its answer. Without it a page prints as it is.
 */
export interface PrintStyle {
  stylesheet: string;
  /** Run in the page (scripts of the page stay off) after the stylesheet applies; its answer goes to `pdf`. */
  prepare: string;
  pdf(prepared: unknown): PDFOptions;
}

/**
 * Prints one page's HTML (offline, scripts off) and reads its truth from the DOM printed; `style`
 * sets the page first (bench:paper), `printBackground` prints backgrounds too (bench:table-styles'
 * shaded rows).
 */
export async function printHtml(browser: Browser, html: string, style?: PrintStyle, { printBackground = false }: { printBackground?: boolean } = {}): Promise<{ bytes: Buffer; truth: PageTruth }> {
  const context = await browser.newContext({ javaScriptEnabled: false, offline: true, serviceWorkers: 'block' });
  try {
    await context.route('**/*', (route) => route.abort());
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load', timeout: PAGE_SECONDS * 1000 });
    await page.emulateMedia({ media: 'print' });
    let options: PDFOptions = { format: 'A4', printBackground };
    if (style) {
      // Not page.addStyleTag: it waits for the style's load event, which never fires with scripts off.
      await page.evaluate(`(() => { const s = document.createElement('style'); s.textContent = ${JSON.stringify(style.stylesheet)}; (document.head || document.documentElement).appendChild(s); })()`);
      options = style.pdf(await page.evaluate(style.prepare));
    }
    const bytes = await page.pdf(options);
    const truth = (await page.evaluate(TRUTH_SCRIPT)) as PageTruth;
    return { bytes, truth };
  } finally {
    await context.close();
  }
}

async function printOne(browser: Browser, file: string, pdfFile: string, style: PrintStyle | undefined): Promise<{ pages: number; truth: PageTruth }> {
  const { bytes, truth } = await printHtml(browser, fs.readFileSync(file, 'utf8'), style);
  fs.writeFileSync(pdfFile, bytes);
  return { pages: pdfPages(bytes), truth };
}

/** Where and how a bench prints the corpus: its cache folder and version, its setting, its name for messages. */
export interface CorpusPrinting {
  dir: string;
  version: number;
  style?: PrintStyle;
  bench: string;
}

/**
 * The corpus pages printed as `printing` says, printing those missing from its cache (a few
 * minutes the first time). `log` hears progress.
 */
export async function printCorpus(printing: CorpusPrinting, log: (line: string) => void): Promise<PrintedPage[]> {
  const { dir, version, style, bench } = printing;
  fs.mkdirSync(dir, { recursive: true });
  const all = corpusPages();
  const cache = entryCache<CacheEntry>(dir, version);
  const missing = all.filter(([name]) => cache.read(name) === undefined);
  if (missing.length > 0) {
    log(`printing ${missing.length} of ${all.length} pages with Chromium into ${path.relative(process.cwd(), dir)} …`);
    const config = loadConfig();
    const { chromium } = await import('playwright-core');
    const sandbox = config.browser.sandbox === 'auto' ? process.getuid?.() !== 0 : config.browser.sandbox === 'on';
    const launch = async () => {
      try {
        return await chromium.launch({ executablePath: config.browser.executablePath, headless: true, chromiumSandbox: sandbox, timeout: 60_000 });
      } catch (err) {
        throw new Error(`${bench} prints the corpus with Chromium (${config.browser.executablePath}, FOLIO_BROWSER_EXECUTABLE) the first time, and it did not start: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      }
    };
    let browser = await launch();
    try {
      let done = 0;
      for (const [name, file] of missing) {
        const source = path.relative(CORPUS_DIR, file);
        let entry: CacheEntry;
        try {
          const { pages, truth } = await withTimeout(printOne(browser, file, path.join(dir, `${name}.pdf`), style), PAGE_SECONDS + 5, name);
          entry = { version, source, pages, truth };
        } catch (err) {
          entry = cache.failed(source, err);
          if (!browser.isConnected()) browser = await launch();
        }
        cache.write(name, entry);
        if (++done % 25 === 0) log(`  ${done}/${missing.length}`);
      }
    } finally {
      await browser.close();
    }
  }
  const out: PrintedPage[] = [];
  for (const [name] of all) {
    const entry = cache.read(name);
    if (!entry?.truth) continue;
    out.push({ name, source: entry.source, pdf: path.join(dir, `${name}.pdf`), pages: entry.pages, truth: entry.truth });
  }
  return out;
}

/**
 * The printed pages, printing those missing from the cache (a few minutes the first time).
 * `log` hears progress.
 */
export function printedPages(log: (line: string) => void): Promise<PrintedPage[]> {
  return printCorpus({ dir: PRINTED_DIR, version: CACHE_VERSION, bench: 'bench:printed' }, log);
}
