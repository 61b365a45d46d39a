/**
 * Bytes → text for HTML input, the way a browser picks the encoding of a file it has no HTTP
 * header for: a byte-order mark wins; otherwise the `<meta charset>` / `http-equiv` declaration
 * (or an XML declaration) in the first few KB; otherwise UTF-8. Legacy encodings go through
 * iconv-lite. Two departures from a browser, both reported as warnings:
 *  - a page that declares a legacy charset but whose bytes are valid UTF-8 with non-ASCII text is
 *    read as UTF-8 (saved copies of pages are often re-encoded without fixing the declaration);
 *  - an undeclared page that is not valid UTF-8 is read as Windows-1252 instead of producing
 *    replacement characters.
 */
import iconv from 'iconv-lite';

export interface Decoded {
  text: string;
  /** The encoding the text was decoded from (a WHATWG-style label). */
  encoding: string;
  warnings: string[];
}

/** How far into the file the declaration is looked for (the HTML spec's prescan reads 1024 bytes; pages often put it later). */
const PRESCAN_BYTES = 4096;

/**
 * WHATWG Encoding Standard label aliases that differ from what iconv-lite would do with the
 * label: ISO-8859-1 and ASCII are really Windows-1252 on the web, GB2312 is GBK, and so on.
 */
const LABEL_ALIASES: Record<string, string> = {
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'l1': 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  'ansi_x3.4-1968': 'windows-1252',
  'cp1252': 'windows-1252',
  'x-user-defined': 'windows-1252',
  'iso-8859-9': 'windows-1254',
  'latin5': 'windows-1254',
  'iso-8859-11': 'windows-874',
  'tis-620': 'windows-874',
  gb2312: 'gb18030',
  gbk: 'gb18030',
  'x-gbk': 'gb18030',
  'gb_2312-80': 'gb18030',
  'euc-kr': 'cp949',
  'ks_c_5601-1987': 'cp949',
  'windows-949': 'cp949',
  'sjis': 'shift_jis',
  'x-sjis': 'shift_jis',
  'windows-31j': 'shift_jis',
  'ms932': 'shift_jis',
  'big5-hkscs': 'big5hkscs',
  'utf8': 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
};

const UTF8_STRICT = new TextDecoder('utf-8', { fatal: true });
const UTF8_LOOSE = new TextDecoder('utf-8');

function normalizeLabel(label: string): string {
  const clean = label.trim().replace(/^["']|["']$/g, '').trim().toLowerCase();
  return LABEL_ALIASES[clean] ?? clean;
}

/** Attribute values of one start tag, names lower-cased. */
function tagAttributes(tag: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const re = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  let m: RegExpExecArray | null;
  // Skip the tag name itself.
  re.lastIndex = tag.search(/\s/) === -1 ? tag.length : tag.search(/\s/);
  while ((m = re.exec(tag)) !== null) {
    const name = (m[1] ?? '').toLowerCase();
    if (!attrs.has(name)) attrs.set(name, m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/** The charset named by `content="text/html; charset=…"`. */
function charsetFromContentType(content: string): string | undefined {
  const m = /charset\s*=\s*["']?([^\s"';]+)/i.exec(content);
  return m?.[1];
}

/** The encoding declared in the head of the file, if any (meta charset, http-equiv, XML declaration). */
export function declaredCharset(head: string): string | undefined {
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  const metaRe = /<meta\b[^>]*>/gi;
  let m: RegExpExecArray | null;
  while ((m = metaRe.exec(head)) !== null) {
    const attrs = tagAttributes(m[0]);
    const charset = attrs.get('charset');
    if (charset) return charset;
    const httpEquiv = attrs.get('http-equiv');
    const content = attrs.get('content');
    if (httpEquiv?.toLowerCase() === 'content-type' && content) {
      const fromContent = charsetFromContentType(content);
      if (fromContent) return fromContent;
    }
  }
  return xml?.[1];
}

function bomEncoding(bytes: Uint8Array): { encoding: string; skip: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  return undefined;
}

function hasNonAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    if ((bytes[i] as number) >= 0x80) return true;
  }
  return false;
}

/** Strict UTF-8, or undefined when the bytes are not valid UTF-8. */
function tryUtf8(bytes: Uint8Array): string | undefined {
  try {
    return UTF8_STRICT.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Decodes with a legacy encoding: iconv-lite first, the runtime's ICU decoder second. */
function decodeLegacy(bytes: Buffer, encoding: string): string | undefined {
  if (iconv.encodingExists(encoding)) return iconv.decode(bytes, encoding, { stripBOM: true });
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    return undefined;
  }
}

export function decodeHtml(bytes: Buffer): Decoded {
  const warnings: string[] = [];
  const bom = bomEncoding(bytes);
  if (bom) {
    const body = bytes.subarray(bom.skip);
    const text = bom.encoding === 'utf-8' ? UTF8_LOOSE.decode(body) : iconv.decode(Buffer.from(body), bom.encoding);
    return { text, encoding: bom.encoding, warnings };
  }

  const head = bytes.subarray(0, PRESCAN_BYTES).toString('latin1');
  const label = declaredCharset(head);
  let encoding = label ? normalizeLabel(label) : undefined;
  // A declaration read from ASCII-compatible bytes cannot be UTF-16 (HTML spec prescan rule).
  if (encoding?.startsWith('utf-16')) encoding = 'utf-8';

  if (encoding === undefined || encoding === 'utf-8') {
    const strict = tryUtf8(bytes);
    if (strict !== undefined) return { text: strict, encoding: 'utf-8', warnings };
    if (encoding === 'utf-8') {
      warnings.push('The page declares UTF-8 but contains invalid UTF-8 byte sequences; they were replaced with U+FFFD.');
      return { text: UTF8_LOOSE.decode(bytes), encoding: 'utf-8', warnings };
    }
    warnings.push('The page declares no character encoding and is not valid UTF-8; it was read as Windows-1252.');
    return { text: iconv.decode(bytes, 'windows-1252'), encoding: 'windows-1252', warnings };
  }

  if (hasNonAscii(bytes)) {
    const asUtf8 = tryUtf8(bytes);
    if (asUtf8 !== undefined) {
      warnings.push(`The page declares the '${label}' character encoding but its bytes are valid UTF-8; it was read as UTF-8.`);
      return { text: asUtf8, encoding: 'utf-8', warnings };
    }
  }
  const text = decodeLegacy(bytes, encoding);
  if (text !== undefined) return { text, encoding, warnings };

  warnings.push(`The page declares an unknown character encoding '${label}'; it was read as UTF-8.`);
  return { text: UTF8_LOOSE.decode(bytes), encoding: 'utf-8', warnings };
}
