/**
 * The OCR stage of the PDF reader (issue 3 §2 and §4), between extraction and layout: the reader
 * hands it every page's text-layer model in page order; it decides per page (ocr-decision.ts),
 * OCRs the pages that need it side by side while extraction goes on, reports progress, and keeps
 * the reading inside the request's time budget. What comes out is a PageModel per page, OCRed
 * ones with `source: 'ocr'`, for the same layout analysis as text pages.
 *
 *   const { pages, numPages, failed, warnings } = await readPages({ ...input, mode, total: toRead }, (n) => extractPage(…, n));
 */
import { ServiceError } from '../../../errors.ts';
import type { Progress } from '../../document.ts';
import { createPageOcr, defaultOcrConcurrency, type OcrPageOutcome, type PageOcr } from '../../ocr/fan-out.ts';
import { scriptWarning, type DetectedScript } from '../../ocr/script.ts';
import type { OcrSettings } from '../../ocr/settings.ts';
import { DEFAULT_OCR_LANGUAGES, debianPackages, resolveLanguages } from '../../ocr/tools.ts';
import { pagesPhrase } from './errors.ts';
import { imageCoverage, MIN_IMAGE_SHARE, ocrNeed, SCAN_COVERAGE, type OcrNeed } from './ocr-decision.ts';
import type { PageModel } from './page-model.ts';

export interface OcrStageOptions {
  /** The PDF itself: pdftoppm renders the pages to OCR from it. */
  bytes: Buffer;
  mode: 'fast' | 'auto' | 'ocr';
  /** Pages the reader will add (1 … total, after `maxPages`). */
  total: number;
  signal: AbortSignal;
  /** Epoch ms: pages not done by then are left out (with a warning). Absent: no budget. */
  deadline?: number;
  ocr?: OcrSettings;
  onProgress?: (progress: Progress) => void;
}

export interface OcrStageResult {
  /** The pages read, in order (pages the reader could not extract are not there). */
  pages: PageModel[];
  /** `metadata.numPages`: `total`, or the last page returned when the time budget ran out. */
  numPages: number;
  warnings: string[];
}

export interface OcrStage {
  /** Hands over the next page's text-layer model. False once the time budget is spent: stop extracting. */
  add(page: PageModel): boolean;
  /** A page the reader could not extract: it counts as done for progress. */
  skip(number: number): void;
  /** Waits for the OCR still running (at most until the deadline) and returns the pages and warnings. */
  finish(): Promise<OcrStageResult>;
  /** Stops: kills the OCR children, drops the pages waiting, removes the temporary file. */
  abort(): Promise<void>;
}

/**
 * The OCRed page: tesseract's words over the text layer's rules and links. When images cover the
 * sheet (ocr-decision.ts SCAN_COVERAGE), they are the scan itself, tiles included, and are dropped
 * so that no placeholder for them appears; figures on a page with a text layer stay. A page whose
 * text layer draws no rules and no shaded boxes (a scan) takes the rules its image shows
 * (ocr/rulings.ts), so a scanned ruled table is found by its grid as a drawn one is.
 */
function ocrPageModel(page: PageModel, words: PageModel['words'], imageRules: PageModel['rules']): PageModel {
  const pageArea = page.width * page.height;
  const large = page.images.filter((img) => pageArea > 0 && ((img.x1 - img.x0) * (img.y1 - img.y0)) / pageArea >= MIN_IMAGE_SHARE);
  const images = imageCoverage(page, large) >= SCAN_COVERAGE ? page.images.filter((img) => !large.includes(img)) : page.images;
  const rules = page.rules.length === 0 && page.fills.length === 0 ? imageRules : page.rules;
  return { ...page, words, rules, images, source: 'ocr' };
}

export function budgetWarning(done: number, total: number): string {
  return `Stopped after page ${done} of ${total}: the request's timeout was reached; raise \`timeout\` or use \`maxPages\`.`;
}

export function createOcrStage(options: OcrStageOptions): OcrStage {
  const { mode, total } = options;
  const pages = new Map<number, PageModel>();
  /** Pages waiting for their OCR, and why they need it (undefined in mode ocr: every page). */
  const pending = new Map<number, OcrNeed | undefined>();
  const needOcr: number[] = [];
  const failed: number[] = [];
  const warnings: string[] = [];
  /** Pages OCR read badly and OSD found set in a script (script.ts), and the languages OCR ran with. */
  const scripts = new Map<number, DetectedScript>();
  let usedLanguages = '';
  let done = 0;
  let lastReported = 0;

  // The budget: at the deadline the children are killed and the reading stops.
  const budget = new AbortController();
  let expired = false;
  /** add() turned a page away: the reading stopped before the end. */
  let refused = false;
  const expire = () => {
    expired = true;
    budget.abort(new Error('deadline'));
  };
  // setTimeout takes at most 2^31-1 ms; an infinite deadline (the CLI) is no deadline.
  const timer =
    options.deadline === undefined || !Number.isFinite(options.deadline)
      ? undefined
      : setTimeout(expire, Math.min(2 ** 31 - 1, Math.max(0, options.deadline - Date.now())));
  const signal = AbortSignal.any([options.signal, budget.signal]);

  function progress(): void {
    done++;
    if (done > lastReported) {
      lastReported = done;
      options.onProgress?.({ done, total, unit: 'page' });
    }
  }

  let fanOut: Promise<PageOcr> | undefined;
  function startOcr(): Promise<PageOcr> {
    fanOut ??= (async () => {
      const languages = await resolveLanguages(options.ocr?.languages ?? DEFAULT_OCR_LANGUAGES);
      if (languages.missing.length > 0) {
        warnings.push(
          `OCR ran with ${languages.use} only: the configured language${languages.missing.length > 1 ? 's' : ''} ${languages.missing.join(', ')} ${languages.missing.length > 1 ? 'are' : 'is'} not installed on this server (${debianPackages(languages.missing)}).`,
        );
      }
      usedLanguages = languages.use;
      return createPageOcr({
        bytes: options.bytes,
        languages: languages.use,
        concurrency: options.ocr?.concurrency ?? defaultOcrConcurrency(),
        ...(options.ocr?.tempDir ? { tempDir: options.ocr.tempDir } : {}),
        signal,
        onPage: onOcrPage,
      });
    })();
    return fanOut;
  }

  function onOcrPage(outcome: OcrPageOutcome): void {
    if (!pending.has(outcome.number)) return;
    const need = pending.get(outcome.number);
    pending.delete(outcome.number);
    const page = pages.get(outcome.number) as PageModel;
    if ('script' in outcome && outcome.script) scripts.set(outcome.number, outcome.script);
    if (!('words' in outcome)) failed.push(outcome.number);
    // A thin text layer is replaced only by an OCR that reads more than it holds.
    else if (need !== 'thin' || outcome.words.length >= page.words.length) pages.set(outcome.number, ocrPageModel(page, outcome.words, outcome.rules));
    progress();
  }

  return {
    add(page) {
      if (expired || (options.deadline !== undefined && Date.now() >= options.deadline)) {
        if (!expired) expire();
        refused = true;
        return false;
      }
      pages.set(page.number, page);
      const need = mode === 'auto' ? ocrNeed(page) : undefined;
      if (mode === 'ocr' || need !== undefined) {
        pending.set(page.number, need);
        startOcr().then(
          (ocr) => ocr.add({ number: page.number, width: page.width, height: page.height }),
          () => undefined,
        );
      } else {
        // fast mode reads no images (pdfjs.ts), so every page without words is named.
        if (mode === 'fast' && ocrNeed(page, { imagesKnown: false }) !== undefined) needOcr.push(page.number);
        progress();
      }
      return true;
    },

    skip() {
      progress();
    },

    async abort() {
      budget.abort(new Error('stopped'));
      if (timer) clearTimeout(timer);
      if (fanOut) await (await fanOut.catch(() => undefined))?.finish();
    },

    async finish() {
      try {
        if (fanOut) await (await fanOut).finish();
      } finally {
        if (timer) clearTimeout(timer);
      }
      options.signal.throwIfAborted();

      // The pages returned run up to the first one not done: an OCR cut off by the deadline ends the document there.
      const numbers = [...pages.keys()].sort((a, b) => a - b);
      const kept: PageModel[] = [];
      for (const n of numbers) {
        if (pending.has(n)) break;
        kept.push(pages.get(n) as PageModel);
      }
      const last = kept[kept.length - 1]?.number ?? 0;
      const cut = refused || pending.size > 0;
      if (cut) {
        if (kept.length === 0) {
          throw new ServiceError(
            'SCRAPE_TIMEOUT',
            "Not even the PDF's first page could be read within the request's timeout. Raise `timeout` (at most 300000).",
          );
        }
        warnings.push(budgetWarning(last, total));
        if (lastReported < total) options.onProgress?.({ done: total, total, unit: 'page' });
      }
      const failedKept = failed.filter((n) => n <= last).sort((a, b) => a - b);
      if (failedKept.length > 0) {
        warnings.push(pagesPhrase(failedKept, 'could not be OCRed; its text layer is used as it is.', 'could not be OCRed; their text layers are used as they are.'));
      }
      const keptScripts = new Map([...scripts].filter(([n]) => n <= last));
      const wrongScript = scriptWarning(keptScripts, usedLanguages);
      if (wrongScript) warnings.push(wrongScript);
      const scanned = needOcr.filter((n) => n <= last);
      if (scanned.length > 0) {
        warnings.push(
          `${pagesPhrase(scanned, 'has no usable text layer; it looks scanned.', 'have no usable text layer; they look scanned.')} Parse with mode 'auto' or 'ocr' to read ${scanned.length > 1 ? 'them' : 'it'}.`,
        );
      }
      return { pages: kept, numPages: cut ? last : total, warnings };
    },
  };
}

export interface ReadPagesResult extends OcrStageResult {
  /** Pages `extract` failed on (not ServiceErrors), up to numPages: the reader warns about them. */
  failed: number[];
}

/**
 * THE hook between extraction and layout: extracts pages 1 … total in order through `extract`,
 * OCRs those that need it (mode), and stops at the deadline. A page whose extraction throws
 * anything but a ServiceError is skipped and listed in `failed`; a ServiceError or an abort stops
 * everything, OCR children and temporary file included.
 */
export async function readPages(options: OcrStageOptions, extract: (number: number) => Promise<PageModel>): Promise<ReadPagesResult> {
  const stage = createOcrStage(options);
  const failed: number[] = [];
  try {
    for (let number = 1; number <= options.total; number++) {
      options.signal.throwIfAborted();
      let page: PageModel;
      try {
        page = await extract(number);
      } catch (err) {
        options.signal.throwIfAborted();
        if (err instanceof ServiceError) throw err;
        failed.push(number);
        stage.skip(number);
        continue;
      }
      if (!stage.add(page)) break;
    }
  } catch (err) {
    await stage.abort();
    throw err;
  }
  const result = await stage.finish();
  return { ...result, failed: failed.filter((n) => n <= result.numPages) };
}
