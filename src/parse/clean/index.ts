/**
 * The clean step (DESIGN.md "The one pipeline"): edits the intermediate document in place
 * according to the options, one concern per file.
 *
 * Every kind: excludeTags / includeTags (tag-filters.ts), page furniture with onlyMainContent
 * (furniture.ts), responsive images and absolute URLs (images.ts, urls.ts), removeBase64Images.
 * HTML only: noise (script, style, …, comments), hidden elements, blockAds, and the two halves
 * of onlyMainContent — furniture of web pages (boilerplate.ts), then the main-content container
 * (main-content.ts) — plus lazy-loaded images.
 *
 * Order matters: noise and hidden elements go first so no later step counts their text;
 * selectors run before main-content extraction so they address the page as written.
 */
import type { DocumentKind } from '../detect.ts';
import type { ReadResult } from '../document.ts';
import type { ParseOptions } from '../options.ts';
import { removeAds } from './ads.ts';
import { removeBoilerplate } from './boilerplate.ts';
import { ContentStats } from './content-stats.ts';
import { removeFurniture } from './furniture.ts';
import { removeHidden } from './hidden.ts';
import { promoteLazyImages, removeBase64Images, resolveResponsiveImages } from './images.ts';
import { pickMainContent } from './main-content.ts';
import { removeNoise } from './noise.ts';
import { applyTagFilters } from './tag-filters.ts';
import { findTitleHeading } from './title-heading.ts';
import { rewriteUrls } from './urls.ts';

export function clean(read: ReadResult, options: ParseOptions, kind: DocumentKind): void {
  const document = read.document;
  const body = document.body;
  if (!body) return;
  const html = kind === 'html';

  if (html) {
    removeNoise(document);
    const stats = new ContentStats(body);
    removeHidden(body, stats);
    if (options.blockAds) removeAds(body, stats);
  }

  const includeRoots = applyTagFilters(document, options.includeTags, options.excludeTags);

  if (options.onlyMainContent) {
    removeFurniture(body);
    if (html) {
      const titleHeading = findTitleHeading(body, read.metadata.title);
      removeBoilerplate(body, { stats: new ContentStats(body), titleHeading, includeRoots });
      if (includeRoots === undefined) pickMainContent(document, new ContentStats(body), titleHeading);
    }
  }

  if (html) promoteLazyImages(body);
  resolveResponsiveImages(body);
  rewriteUrls(body, read.baseUrl);
  if (options.removeBase64Images) removeBase64Images(body);
}
