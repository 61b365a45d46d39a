/**
 * One analysed page → `<section data-page="N">`: running header first, rotated text up the left
 * margin, the body in reading order (h1–h6, p, ul/ol/li nested by indent, pre/code listings,
 * tables, img placeholders), footnotes, the other rotated text, running footer last.
 */
import { escapeHtml } from '../../../document.ts';
import type { Word } from '../page-model.ts';
import type { Block } from './blocks.ts';
import { codeHtml } from './code.ts';
import { inlineHtml } from './inline.ts';
import { listMarker, type ListMarker } from './markers.ts';
import type { PageLayout } from './page.ts';

/** 'item': a tagged list item (role LI), an item even without a marker glyph. */
export type Role = { kind: 'header' | 'footer' | 'footnote' | 'item' | 'code' } | { kind: 'heading'; level: number };

interface Item {
  marker: ListMarker;
  x: number;
  size: number;
  html: string;
}

/** List items → nested ul/ol: an item indented past the previous one opens a list inside it. */
function renderList(items: readonly Item[]): string {
  let out = '';
  const stack: { kind: 'ul' | 'ol'; x: number }[] = [];
  for (const item of items) {
    const tolerance = 0.6 * item.size;
    let top = stack[stack.length - 1];
    while (top && item.x < top.x - tolerance && stack.length > 1) {
      out += `</li></${top.kind}>`;
      stack.pop();
      top = stack[stack.length - 1];
    }
    if (top && item.x <= top.x + tolerance) {
      if (top.kind === item.marker.kind) out += '</li>';
      else {
        out += `</li></${top.kind}><${item.marker.kind}>`;
        top.kind = item.marker.kind;
      }
    } else {
      out += `<${item.marker.kind}>`;
      stack.push({ kind: item.marker.kind, x: item.x });
    }
    const value = item.marker.kind === 'ol' && item.marker.value !== undefined ? ` value="${item.marker.value}"` : '';
    out += `<li${value}>${item.html}`;
  }
  while (stack.length > 0) out += `</li></${stack.pop()?.kind}>`;
  return out;
}

/** A tagged list item whose label is no glyph (or has none): a bulleted item, nothing to drop. */
const UNMARKED_ITEM: ListMarker = { kind: 'ul', length: 0 };

/** Alternative text as an attribute value: control characters (a stray NUL) dropped. */
function altText(alt: string | undefined): string {
  return (alt ?? '').replace(/[\u0000-\u001F\u007F]+/gu, ' ').replace(/\s+/gu, ' ').trim();
}

function rotatedHtml(words: readonly Word[]): string {
  return `<p>${escapeHtml(words.map((w) => w.text).join(' '))}</p>`;
}

export function renderPage(layout: PageLayout, roles: ReadonlyMap<Block, Role>, texts: ReadonlyMap<Block, string>): string {
  const { page } = layout;
  const header: string[] = [];
  const body: string[] = [];
  const notes: string[] = [];
  const footer: string[] = [];
  let items: Item[] = [];
  const flushList = () => {
    if (items.length > 0) body.push(renderList(items));
    items = [];
  };
  for (const unit of layout.units) {
    if (unit.kind === 'table') {
      flushList();
      body.push(unit.table.html);
      continue;
    }
    if (unit.kind === 'image') {
      flushList();
      body.push(`<img alt="${escapeHtml(altText(unit.image.alt))}">`);
      continue;
    }
    const block = unit.block;
    const role = roles.get(block);
    const html = () => inlineHtml(block.lines, page.links);
    if (role?.kind === 'header' || role?.kind === 'footer') {
      (role.kind === 'header' ? header : footer).push(`<p>${html()}</p>`);
      continue;
    }
    if (role?.kind === 'footnote') {
      notes.push(`<p>${html()}</p>`);
      continue;
    }
    if (role?.kind === 'code') {
      flushList();
      body.push(codeHtml(block));
      continue;
    }
    if (role?.kind === 'heading') {
      flushList();
      body.push(`<h${role.level}>${html()}</h${role.level}>`);
      continue;
    }
    const text = texts.get(block) ?? '';
    const marker = listMarker(text) ?? (role?.kind === 'item' ? UNMARKED_ITEM : undefined);
    if (marker) {
      items.push({ marker, x: block.x0, size: block.size, html: inlineHtml(block.lines, page.links, marker.length) });
      continue;
    }
    const last = items[items.length - 1];
    if (last && block.x0 > last.x + 0.6 * last.size) {
      // A paragraph indented under a list item continues that item.
      last.html += ` ${html()}`;
      continue;
    }
    flushList();
    body.push(`<p>${html()}</p>`);
  }
  flushList();
  // Rotated text in the left margin (an arXiv stamp up the page's left edge) is met before the
  // page's text; elsewhere (a margin note, a label on the right) after it.
  const lefts = layout.units.flatMap((u) => (u.kind === 'block' ? [u.block.x0] : []));
  const left = lefts.length > 0 ? Math.min(...lefts) : -Infinity;
  const before: string[] = [];
  for (const run of layout.rotated) (Math.max(...run.map((w) => w.x1)) < left ? before : notes).push(rotatedHtml(run));
  body.unshift(...before);
  const parts = [
    header.length > 0 ? `<header data-furniture="header">${header.join('')}</header>` : '',
    ...body,
    ...notes,
    footer.length > 0 ? `<footer data-furniture="footer">${footer.join('')}</footer>` : '',
  ];
  return `<section data-page="${page.number}">${parts.join('')}</section>`;
}
