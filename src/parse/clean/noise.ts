/**
 * What never is content in an HTML page (interface-v2 `html`: "removes `<script>`, `<style>`,
 * `<noscript>`, `<meta>` and `<head>`"): those elements, `<template>`, head-only elements left in
 * the body (`<title>`, `<link>`, `<base>`), and comments. The head itself is emptied; metadata
 * was read from it before cleaning.
 *
 * The page index is built without them (`isNoise` is its exclude rule), so no later step counts
 * their text; `removeNoise` then takes them out of the DOM.
 */
import { COMMENT_NODE } from './dom.ts';
import type { PageIndex } from './page-index.ts';

const NOISE_TAGS = new Set(['script', 'style', 'noscript', 'meta', 'template', 'title', 'link', 'base']);

export function isNoise(element: Element): boolean {
  return NOISE_TAGS.has(element.localName);
}

export function removeNoise(document: Document, index: PageIndex): void {
  document.head?.replaceChildren();
  for (const element of index.excluded) element.remove();
  for (const comment of index.comments) comment.parentNode?.removeChild(comment);
  // Comments around <head> and <body> are not content either.
  for (const parent of [document, document.documentElement]) {
    if (!parent) continue;
    for (const node of Array.from(parent.childNodes)) {
      if (node.nodeType === COMMENT_NODE) parent.removeChild(node);
    }
  }
}
