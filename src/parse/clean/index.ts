/**
 * The clean step (DESIGN.md "The one pipeline"): edits the intermediate document in place
 * according to the options, one concern per file, all working from one index of the body built
 * in a single traversal (page-index.ts).
 *
 * Every kind: excludeTags / includeTags (tag-filters.ts), page furniture with onlyMainContent
 * (furniture.ts), responsive images and absolute URLs (images.ts, urls.ts), removeBase64Images.
 * HTML only: noise (script, style, …, comments), hidden elements, blockAds, and the two halves
 * of onlyMainContent — furniture of web pages (boilerplate.ts), then the main-content container
 * (main-content.ts) — plus lazy-loaded images.
 *
 * Order matters: noise and hidden elements go first so no later step counts their text;
 * selectors run before main-content extraction so they address the page as written. When
 * includeTags is given, the matches are the content the user chose, and onlyMainContent leaves
 * them alone.
 */
import type { DocumentKind } from '../detect.ts';
import type { ReadResult } from '../document.ts';
import type { ParseOptions } from '../options.ts';
import { removeAds } from './ads.ts';
import { removeBoilerplate } from './boilerplate.ts';
import { furnitureOnlyWarning, removeFurniture } from './furniture.ts';
import { removeHidden } from './hidden.ts';
import { promoteLazyImages, removeBase64Images, resolveResponsiveImages } from './images.ts';
import { pickMainContent } from './main-content.ts';
import { isNoise, removeNoise } from './noise.ts';
import { PageIndex } from './page-index.ts';
import { applyTagFilters } from './tag-filters.ts';
import { findTitleHeading } from './title-heading.ts';
import { rewriteUrls } from './urls.ts';

export function clean(read: ReadResult, options: ParseOptions, kind: DocumentKind): void {
  const document = read.document;
  const body = document.body;
  if (!body) return;
  const html = kind === 'html';

  const index = new PageIndex(body, html ? { exclude: isNoise } : {});
  if (html) {
    removeNoise(document, index);
    removeHidden(index);
    if (options.blockAds) removeAds(index);
  }

  const includeRoots = applyTagFilters(document, index, options.includeTags, options.excludeTags);

  // includeTags is the user's own choice of content: onlyMainContent has nothing left to choose.
  if (options.onlyMainContent && includeRoots === undefined) {
    const furnitureWarning = furnitureOnlyWarning(body, removeFurniture(index));
    if (furnitureWarning) read.warnings.push(furnitureWarning);
    if (html) {
      index.aggregate();
      const titleHeading = findTitleHeading(index, read.metadata.title);
      removeBoilerplate(index, titleHeading);
      index.aggregate();
      pickMainContent(document, index, titleHeading);
    }
  }

  if (html) promoteLazyImages(index);
  resolveResponsiveImages(index);
  rewriteUrls(index, read.baseUrl);
  if (options.removeBase64Images) removeBase64Images(index);
}
