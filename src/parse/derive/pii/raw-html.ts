/**
 * rawHtml: the input as received, so its markup is not rebuilt. Detection runs on a view of the
 * same length where the markup is blanked to spaces and only text and quoted attribute values
 * remain; replacements are written HTML-escaped (`&lt;EMAIL&gt;`) and never over a blanked
 * character, so every tag survives byte for byte.
 */
import { replacement, type ReplaceStyle } from './replace.ts';
import type { PiiSpan } from './spans.ts';

const TAG = /<(?:!--[\s\S]*?--|[A-Za-z/!?][^>]*)>/g;
const QUOTED = /=\s*(["'])([\s\S]*?)\1/g;

export interface RawView {
  view: string;
  blank: Uint8Array;
}

export function rawHtmlView(raw: string): RawView {
  const blank = new Uint8Array(raw.length);
  const chars = raw.split('');
  TAG.lastIndex = 0;
  for (let m = TAG.exec(raw); m !== null; m = TAG.exec(raw)) {
    const tag = m[0];
    const keep = new Uint8Array(tag.length);
    if (tag.startsWith('<!--')) {
      keep.fill(1, 4, tag.length - 3);
    } else {
      QUOTED.lastIndex = 0;
      for (let q = QUOTED.exec(tag); q !== null; q = QUOTED.exec(tag)) {
        const valueStart = q.index + q[0].length - 1 - (q[2] ?? '').length;
        keep.fill(1, valueStart, valueStart + (q[2] ?? '').length);
      }
    }
    for (let i = 0; i < tag.length; i += 1) {
      if (!keep[i]) {
        blank[m.index + i] = 1;
        chars[m.index + i] = ' ';
      }
    }
  }
  return { view: chars.join(''), blank };
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function applyRawSpans(raw: string, blank: Uint8Array, spans: PiiSpan[], style: ReplaceStyle): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    let first = true;
    let i = span.start;
    while (i < span.end) {
      if (blank[i]) {
        i += 1;
        continue;
      }
      let j = i;
      while (j < span.end && !blank[j]) j += 1;
      out += raw.slice(at, i) + escapeHtml(replacement(span.group, style, raw.slice(i, j), first));
      first = false;
      at = j;
      i = j;
    }
  }
  return out + raw.slice(at);
}
