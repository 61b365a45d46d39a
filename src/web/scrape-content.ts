/**
 * What a fetched body is, told the way DESIGN.md "The one pipeline" says: the bytes first, the
 * URL's extension and the Content-Type second. The answer is a file name with the right
 * extension, so that the parse core reads a PDF URL exactly as it reads an uploaded PDF.
 */
import path from 'node:path';
import { ServiceError } from '../errors.ts';
import { ACCEPTED_EXTENSIONS, sniff } from '../parse/detect.ts';

const KIND_EXTENSION: Record<string, string> = {
  html: '.html',
  pdf: '.pdf',
  docx: '.docx',
  doc: '.doc',
  wordml: '.doc',
  odt: '.odt',
  rtf: '.rtf',
  xlsx: '.xlsx',
  xls: '.xls',
  spreadsheetml: '.xls',
};

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

function mimeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
}

/** The last path segment, decoded, stripped of anything unsafe in a file name. */
function baseName(url: URL): string {
  let last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // keep it encoded
  }
  return last.replace(/[^\p{L}\p{N}._ -]+/gu, '_').slice(0, 200);
}

/**
 * The file name the body is parsed under. Throws UNSUPPORTED_FILE_TYPE, naming the content type,
 * for anything parse cannot read (images, plain text, JSON, archives …).
 */
export function documentFilename(finalUrl: string, contentType: string | undefined, bytes: Buffer): string {
  const url = new URL(finalUrl);
  const name = baseName(url);
  const urlExt = path.extname(name).toLowerCase();
  const mime = mimeOf(contentType);
  if (bytes.length === 0) {
    throw new ServiceError('CORRUPT_FILE', `${finalUrl} answered with an empty body${mime ? ` (${mime})` : ''}; there is nothing to parse.`);
  }
  const sniffed = sniff(bytes);
  let ext = KIND_EXTENSION[sniffed];
  // Text without markup is a page only when the server or the URL says HTML (an HTML fragment).
  if (!ext && sniffed === 'text' && ((mime !== undefined && HTML_TYPES.has(mime)) || urlExt === '.html' || urlExt === '.htm')) ext = '.html';
  if (!ext) {
    throw new ServiceError(
      'UNSUPPORTED_FILE_TYPE',
      `${finalUrl} is ${mime ? `'${mime}'` : 'of no declared type'} (${sniffed === 'text' ? 'plain text' : sniffed === 'binary' ? 'binary data' : `a ${sniffed} container`}), which folio cannot parse. Scrape reads HTML pages and documents: ${ACCEPTED_EXTENSIONS.join(', ')}.`,
    );
  }
  // Keep the URL's own name when its extension agrees (.htm stays .htm); otherwise name it by content.
  const stem = urlExt ? name.slice(0, -urlExt.length) : name;
  const keep = urlExt === ext || (ext === '.html' && urlExt === '.htm');
  return keep ? name : `${stem || 'index'}${ext}`;
}

/**
 * An HTML page that is only a JavaScript application's shell: almost no text, an empty mount
 * point (`<div id="root">`, `#app`, `#__next`, `<app-root>` …) and scripts that would fill it.
 */
export function looksLikeAppShell(bytes: Buffer): boolean {
  const html = bytes.subarray(0, 2 * 1024 * 1024).toString('utf8');
  const scripts = (html.match(/<script\b/gi) ?? []).length;
  if (scripts === 0) return false;
  const mount = /<div[^>]+id=["']?(root|app|__next|__nuxt|svelte|main-app|application)["']?[^>]*>\s*<\/div>|<(app-root|my-app)\b[^>]*>\s*<\/\1>/i.test(html);
  const text = html
    .replace(/<(script|style|noscript|template|head)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (mount && text.length < 200) || (text.length < 40 && scripts >= 2);
}

export const APP_SHELL_WARNING =
  'This page looks like a JavaScript application shell (almost no text, an empty root element and scripts): its content is rendered in the browser, and folio did not render it (its browser engine is off on this server, or not used for this request), so the result may be empty or incomplete.';
