/**
 * Code pages of RTF text: `\ansicpgN` sets the document's, a font's `\fcharsetN` (or `\cpgN`)
 * overrides it for text in that font. Bytes (`\'hh` escapes and raw 8-bit text) are collected
 * while the code page stays the same and decoded together, so a double-byte character split
 * over two `\'hh` escapes decodes as one character.
 */
import iconv from 'iconv-lite';

/** `\fcharsetN` → Windows code page (RTF spec, "Font table"). */
const CHARSET_CODE_PAGES: Record<number, number> = {
  0: 1252,
  77: 10000,
  78: 10001,
  79: 10003,
  80: 10008,
  81: 10002,
  83: 10005,
  84: 10004,
  85: 10006,
  86: 10081,
  87: 10021,
  88: 10029,
  89: 10007,
  128: 932,
  129: 949,
  130: 1361,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
  254: 437,
};

/** The code page of a `\fcharsetN`, or undefined when it names none (symbol, OEM, default). */
export function charsetCodePage(charset: number): number | undefined {
  return CHARSET_CODE_PAGES[charset];
}

/** iconv-lite's name for a Windows code page, or undefined when iconv-lite does not know it. */
function encodingName(codePage: number): string | undefined {
  const names = codePage === 65001 ? ['utf8'] : codePage === 10000 ? ['macintosh'] : codePage === 932 ? ['shift_jis'] : codePage === 936 ? ['gbk'] : codePage === 950 ? ['big5'] : codePage === 949 ? ['cp949'] : [`cp${codePage}`, `windows-${codePage}`];
  return names.find((name) => iconv.encodingExists(name));
}

const knownNames = new Map<number, string | undefined>();

/** Decodes bytes of a code page; an unknown code page falls back to Windows-1252. */
export function decodeBytes(bytes: Uint8Array, codePage: number): string {
  let name = knownNames.get(codePage);
  if (!knownNames.has(codePage)) {
    name = encodingName(codePage);
    knownNames.set(codePage, name);
  }
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), name ?? 'windows-1252');
}

/** A growable byte buffer for text waiting to be decoded. */
export class PendingBytes {
  private buffer = Buffer.alloc(256);
  length = 0;
  /** Whether every byte so far is ASCII (then no decoder is needed). */
  ascii = true;

  push(byte: number): void {
    if (this.length === this.buffer.length) this.grow(this.length + 1);
    this.buffer[this.length++] = byte;
    if (byte >= 0x80) this.ascii = false;
  }

  pushAll(bytes: Uint8Array): void {
    if (this.length + bytes.length > this.buffer.length) this.grow(this.length + bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
    if (this.ascii) {
      for (let i = 0; i < bytes.length; i++) {
        if ((bytes[i] as number) >= 0x80) {
          this.ascii = false;
          break;
        }
      }
    }
  }

  /** Decodes and empties the buffer. */
  take(codePage: number): string {
    if (this.length === 0) return '';
    const text = this.ascii ? this.buffer.toString('latin1', 0, this.length) : decodeBytes(this.buffer.subarray(0, this.length), codePage);
    this.length = 0;
    this.ascii = true;
    return text;
  }

  private grow(needed: number): void {
    let size = this.buffer.length * 2;
    while (size < needed) size *= 2;
    const next = Buffer.alloc(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
}

/**
 * Whether the document's raw 8-bit bytes are UTF-8: at least one multi-byte sequence and every
 * byte of 0x80 or more part of a well-formed one. RTF written from HTML (and by some converters)
 * puts UTF-8 straight into the text whatever `\ansicpg` says, or with `\ansicpg65001`; read as
 * Windows-1252 it turns to mojibake ("cafÃ©"). Text that is really in a single-byte code page is
 * almost never well-formed UTF-8 by chance.
 */
export function rawBytesAreUtf8(bytes: Uint8Array): boolean {
  let sequences = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b < 0x80) continue;
    const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return false;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k] as number;
      if (c < 0x80 || c > 0xbf) return false;
    }
    sequences++;
    i += length - 1;
  }
  return sequences > 0;
}
