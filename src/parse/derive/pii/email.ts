/** EMAIL: addr-spec shaped text whose domain ends in a letters-only TLD that is not a file extension. */
import { regexSpans, type PiiSpan } from './spans.ts';

const EMAIL = /(?<![\w.%+-])[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,63})@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-])/g;

/** `logo@2x.png` and `icon@3x.webp` are image names, not addresses. */
const FILE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'css', 'js', 'mjs', 'ts', 'json', 'html', 'pdf', 'ico']);

export function findEmails(text: string): PiiSpan[] {
  if (!text.includes('@')) return [];
  return regexSpans(text, EMAIL, 'EMAIL', (value) => {
    const tld = value.slice(value.lastIndexOf('.') + 1).toLowerCase();
    return !FILE_EXTENSIONS.has(tld);
  });
}
