/**
 * Images.
 *  - Lazy loading (HTML): an `<img>` without a real `src` (none, or a `data:` placeholder) takes
 *    the URL from `data-src` / `data-lazy-src` / `data-original` / `data-srcset`.
 *  - Responsive images: `srcset` → its largest candidate into `src`, then `srcset` is removed;
 *    in `<picture>`, the `<source>` candidates compete too and the `<source>`s are removed.
 *  - Base64 (every kind, contracts "Images"): with `removeBase64Images` a `data:` src is removed
 *    and the alt text stays, so the writer emits the `![alt]` placeholder.
 */
import type { PageIndex } from './page-index.ts';
import { largestCandidate, parseSrcset, type SrcsetCandidate } from './srcset.ts';

const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'data-url', 'data-hi-res-src'];
const LAZY_SRCSET = ['data-srcset', 'data-lazy-srcset'];

function isDataUri(value: string | null): boolean {
  return value !== null && /^\s*data:/i.test(value);
}

function firstAttribute(element: Element, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = element.getAttribute(name)?.trim();
    if (value && !isDataUri(value)) return value;
  }
  return undefined;
}

/** Live `img`/`source`/`picture` elements, for the image passes. */
function live(index: PageIndex, tags: ReadonlySet<string>): number[] {
  const out: number[] = [];
  for (let i = 1; i < index.size; i++) if (tags.has(index.tags[i] as string) && !index.isRemoved(i)) out.push(i);
  return out;
}

const IMG_OR_SOURCE = new Set(['img', 'source']);
const PICTURE_OR_IMG = new Set(['picture', 'img']);
const IMG = new Set(['img']);

export function promoteLazyImages(index: PageIndex): void {
  for (const i of live(index, IMG_OR_SOURCE)) {
    const element = index.element(i);
    const tag = index.tags[i];
    const src = element.getAttribute('src');
    if (tag === 'img' && (src === null || src.trim() === '' || isDataUri(src))) {
      const lazy = firstAttribute(element, LAZY_SRC);
      if (lazy) element.setAttribute('src', lazy);
    }
    if (!element.getAttribute('srcset')) {
      const lazySet = firstAttribute(element, LAZY_SRCSET);
      if (lazySet) element.setAttribute('srcset', lazySet);
    }
  }
}

export function resolveResponsiveImages(index: PageIndex): void {
  const pictures: Element[] = [];
  const images: Element[] = [];
  for (const i of live(index, PICTURE_OR_IMG)) {
    const element = index.element(i);
    if (index.tags[i] === 'picture') pictures.push(element);
    else if (element.hasAttribute('srcset')) images.push(element);
  }
  const handled = new Set<Element>();
  for (const picture of pictures) {
    const img = picture.querySelector('img');
    const sources = Array.from(picture.querySelectorAll('source')).filter((s) => s.parentElement === picture);
    if (!img) continue;
    const candidates: SrcsetCandidate[] = [];
    for (const source of sources) candidates.push(...parseSrcset(source.getAttribute('srcset') ?? source.getAttribute('src') ?? ''));
    candidates.push(...parseSrcset(img.getAttribute('srcset') ?? ''));
    const src = img.getAttribute('src')?.trim() || undefined;
    const largest = largestCandidate(candidates, isDataUri(src ?? null) ? undefined : src);
    if (largest) img.setAttribute('src', largest);
    img.removeAttribute('srcset');
    img.removeAttribute('sizes');
    for (const source of sources) source.remove();
    handled.add(img);
  }
  for (const img of images) {
    if (handled.has(img)) continue;
    const src = img.getAttribute('src')?.trim() || undefined;
    const largest = largestCandidate(parseSrcset(img.getAttribute('srcset') ?? ''), isDataUri(src ?? null) ? undefined : src);
    if (largest) img.setAttribute('src', largest);
    img.removeAttribute('srcset');
    img.removeAttribute('sizes');
  }
}

/** Removes `data:` srcs from images (alt kept). Returns how many were removed. */
export function removeBase64Images(index: PageIndex): number {
  let removed = 0;
  for (const i of live(index, IMG)) {
    const element = index.element(i);
    if (isDataUri(element.getAttribute('src'))) {
      element.removeAttribute('src');
      removed++;
    }
  }
  return removed;
}
