/**
 * What never is content in an HTML page (interface-v2 `html`: "removes `<script>`, `<style>`,
 * `<noscript>`, `<meta>` and `<head>`"): those elements, `<template>`, head-only elements left in
 * the body (`<title>`, `<link>`, `<base>`), and comments. The head itself is emptied; metadata
 * was read from it before cleaning.
 */
import { COMMENT_NODE, removeAll, walkNodes } from './dom.ts';

const NOISE_TAGS = new Set(['script', 'style', 'noscript', 'meta', 'template', 'title', 'link', 'base']);

export function removeNoise(document: Document): void {
  const head = document.head;
  if (head) head.replaceChildren();
  const body = document.body;
  const doomed: Element[] = [];
  const comments: Node[] = [];
  walkNodes(body, (node) => {
    if (node.nodeType === COMMENT_NODE) {
      comments.push(node);
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    if (NOISE_TAGS.has(element.localName)) {
      doomed.push(element);
      return false;
    }
  });
  removeAll(doomed);
  for (const comment of comments) comment.parentNode?.removeChild(comment);
  // Comments around <head> and <body> are not content either.
  for (const parent of [document, document.documentElement]) {
    if (!parent) continue;
    for (const node of Array.from(parent.childNodes)) {
      if (node.nodeType === COMMENT_NODE) parent.removeChild(node);
    }
  }
}
