/** EMAIL: addr-spec shaped text whose domain ends in a letters-only TLD that is not a file extension. */
import type { PiiSpan } from './spans.ts';

/** Scanning from each `@`: the local part before it, the domain after it (sticky). */
const LOCAL = /[A-Za-z0-9._%+-]{1,64}$/;
const DOMAIN = /(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-])/y;

/** `logo@2x.png` and `icon@3x.webp` are image names, not addresses. */
const FILE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'css', 'js', 'mjs', 'ts', 'json', 'html', 'pdf', 'ico']);

export function findEmails(text: string): PiiSpan[] {
  const out: PiiSpan[] = [];
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    const local = LOCAL.exec(text.slice(Math.max(0, at - 64), at))?.[0].replace(/^[._%+-]+/, '');
    if (!local) continue;
    DOMAIN.lastIndex = at + 1;
    const domain = DOMAIN.exec(text)?.[0];
    if (!domain) continue;
    const tld = domain.slice(domain.lastIndexOf('.') + 1).toLowerCase();
    if (FILE_EXTENSIONS.has(tld)) continue;
    out.push({ start: at - local.length, end: at + 1 + domain.length, group: 'EMAIL' });
  }
  return out;
}
