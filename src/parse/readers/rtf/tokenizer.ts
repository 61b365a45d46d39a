/**
 * The RTF tokenizer (RTF 1.9.1 "Conventions of an RTF Reader"): one pass over the bytes, no
 * allocation per token. `next()` advances to the next token and leaves it in the fields:
 * `{`, `}`, a control word (letters, an optional signed numeric parameter, the single space
 * that delimits it consumed), a control symbol (`\` and one non-letter), a `\'hh` byte, or a run
 * of text bytes (CR and LF are not text in RTF and are dropped). `\binN` data is skipped by the
 * interpreter through `skip()`.
 */

export type TokenType = 'open' | 'close' | 'word' | 'symbol' | 'hex' | 'text' | 'end';

const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const CR = 0x0d;
const LF = 0x0a;

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

export class Tokenizer {
  type: TokenType = 'end';
  /** Control word name, or the control symbol's character. */
  name = '';
  /** Control word parameter, when `hasParam`. */
  param = 0;
  hasParam = false;
  /** The byte of a `\'hh` token. */
  byte = 0;
  /** Text run bounds in `bytes` (end exclusive); CR/LF inside a run are skipped by `text()`. */
  start = 0;
  end = 0;
  private pos = 0;
  private readonly bytes: Buffer;

  constructor(bytes: Uint8Array) {
    this.bytes = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  get position(): number {
    return this.pos;
  }

  get length(): number {
    return this.bytes.length;
  }

  /** Skips a UTF-8 byte order mark and white space before the document (detect() accepts them). */
  skipLeading(): void {
    const bytes = this.bytes;
    let pos = this.pos;
    if (bytes[pos] === 0xef && bytes[pos + 1] === 0xbb && bytes[pos + 2] === 0xbf) pos += 3;
    while (pos < bytes.length && (bytes[pos] === 0x20 || bytes[pos] === 0x09 || bytes[pos] === CR || bytes[pos] === LF)) pos++;
    this.pos = pos;
  }

  /** Skips `count` raw bytes (the data of `\binN`). */
  skip(count: number): void {
    this.pos = Math.min(this.bytes.length, this.pos + Math.max(0, count));
  }

  /** The bytes of the current text run. */
  textBytes(): Uint8Array {
    return this.bytes.subarray(this.start, this.end);
  }

  next(): TokenType {
    const bytes = this.bytes;
    const length = bytes.length;
    let pos = this.pos;
    while (pos < length && (bytes[pos] === CR || bytes[pos] === LF)) pos++;
    if (pos >= length) {
      this.pos = pos;
      return (this.type = 'end');
    }
    const c = bytes[pos] as number;
    if (c === OPEN) {
      this.pos = pos + 1;
      return (this.type = 'open');
    }
    if (c === CLOSE) {
      this.pos = pos + 1;
      return (this.type = 'close');
    }
    if (c === BACKSLASH) return this.control(pos + 1);
    let end = pos + 1;
    while (end < length) {
      const d = bytes[end] as number;
      if (d === BACKSLASH || d === OPEN || d === CLOSE || d === CR || d === LF) break;
      end++;
    }
    this.start = pos;
    this.end = end;
    this.pos = end;
    return (this.type = 'text');
  }

  private control(at: number): TokenType {
    const bytes = this.bytes;
    const length = bytes.length;
    if (at >= length) {
      this.pos = at;
      return (this.type = 'end');
    }
    const c = bytes[at] as number;
    if (!isLetter(c)) {
      if (c === 0x27 /* ' */) {
        const hi = at + 1 < length ? hexValue(bytes[at + 1] as number) : -1;
        const lo = at + 2 < length ? hexValue(bytes[at + 2] as number) : -1;
        if (hi >= 0 && lo >= 0) {
          this.byte = hi * 16 + lo;
          this.pos = at + 3;
          return (this.type = 'hex');
        }
        this.pos = Math.min(length, at + 1);
        this.name = "'";
        return (this.type = 'symbol');
      }
      // `\` before a line end is a paragraph mark (RTF spec: treated as \par).
      this.name = c === CR || c === LF ? 'par' : String.fromCharCode(c);
      this.pos = at + 1;
      if (c === CR || c === LF) {
        this.hasParam = false;
        return (this.type = 'word');
      }
      return (this.type = 'symbol');
    }
    let end = at;
    while (end < length && isLetter(bytes[end] as number)) end++;
    // Names longer than the spec's 32 letters are kept whole; they match nothing.
    this.name = bytes.toString('latin1', at, Math.min(end, at + 40));
    let pos = end;
    let negative = false;
    if (pos < length && bytes[pos] === 0x2d /* - */ && pos + 1 < length && isDigit(bytes[pos + 1] as number)) {
      negative = true;
      pos++;
    }
    this.hasParam = false;
    if (pos < length && isDigit(bytes[pos] as number)) {
      let value = 0;
      let digits = 0;
      while (pos < length && isDigit(bytes[pos] as number)) {
        if (digits < 10) value = value * 10 + ((bytes[pos] as number) - 0x30);
        digits++;
        pos++;
      }
      this.hasParam = true;
      this.param = Math.min(value, 2 ** 31 - 1) * (negative ? -1 : 1);
    }
    if (pos < length && bytes[pos] === 0x20) pos++;
    this.pos = pos;
    return (this.type = 'word');
  }
}
