/**
 * The decoded size of a PDF stream, counted under a budget before pdf.js decodes it (bounds.ts).
 * Each standard filter that can grow its data (ISO 32000-1 §7.4) is decoded here piece by piece,
 * counting and discarding, and stops the moment the output passes the limit; the bytes are kept
 * only when another filter of the chain reads them. Image-only filters (DCTDecode, JPXDecode,
 * CCITTFaxDecode, JBIG2Decode) end the count: their output is bounded by the image's pixels.
 */
import { Unzlib } from 'fflate';

/** The most each filter can multiply its input by (an upper bound: no stream of that filter grows more). */
const MAX_RATIO: Record<string, number> = {
  // RFC 1951: a 258-byte match in about 2 bits.
  FlateDecode: 1032,
  // §7.4.4: codes of 9 to 12 bits; a code stands for at most 4,096 − 258 + 1 bytes (the longest
  // string the 4,096-entry table can hold), i.e. under 3,641 bytes per byte of input at 9 bits.
  LZWDecode: 3641,
  // §7.4.5: two bytes (a length byte 129–255 and the byte) stand for up to 128 bytes.
  RunLengthDecode: 64,
  // §7.4.3: `z` (one character) stands for four zero bytes.
  ASCII85Decode: 4,
  // §7.4.2: two hex digits per byte.
  ASCIIHexDecode: 1,
};
const ABBREVIATIONS: Record<string, string> = { Fl: 'FlateDecode', LZW: 'LZWDecode', RL: 'RunLengthDecode', A85: 'ASCII85Decode', AHx: 'ASCIIHexDecode' };

/** The full name of a counted filter, or undefined for one whose output is not counted here. */
export function countedFilter(name: string): string | undefined {
  const full = ABBREVIATIONS[name] ?? name;
  return MAX_RATIO[full] !== undefined ? full : undefined;
}

export function maxRatio(filter: string): number {
  return MAX_RATIO[filter] ?? Number.POSITIVE_INFINITY;
}

export interface Decoded {
  /** Bytes decoded, or `limit + 1` when the output passed the limit. */
  length: number;
  /** The output, when asked for and within the limit. */
  bytes?: Uint8Array;
}

/** Collects a decoder's output under a limit. */
class Sink {
  length = 0;
  over = false;
  private readonly parts: Uint8Array[] = [];
  constructor(
    private readonly limit: number,
    private readonly keep: boolean,
  ) {}
  push(chunk: Uint8Array): void {
    this.length += chunk.length;
    if (this.length > this.limit) this.over = true;
    else if (this.keep) this.parts.push(chunk);
  }
  /** Adds `n` bytes known only by their count (when the bytes are not kept). */
  count(n: number): void {
    this.length += n;
    if (this.length > this.limit) this.over = true;
  }
  result(): Decoded {
    if (this.over) return { length: this.limit + 1 };
    if (!this.keep) return { length: this.length };
    const bytes = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      bytes.set(p, at);
      at += p.length;
    }
    return { length: this.length, bytes };
  }
}

const SLICE = 16 * 1024;

function flate(data: Uint8Array, sink: Sink): void {
  const inflater = new Unzlib((chunk) => sink.push(chunk));
  try {
    for (let at = 0; at < data.length && !sink.over; at += SLICE) {
      const end = Math.min(at + SLICE, data.length);
      inflater.push(data.subarray(at, end), end === data.length);
    }
  } catch {
    // Damaged or unterminated: pdf.js reads what it can, and so far is all it gets.
  }
}

/**
 * §7.4.4 LZW with the PDF's conventions: codes start at 9 bits, 256 clears the table, 257 ends
 * the data, and the width grows one code early (`EarlyChange` 1, the default) or on time (0).
 * Without `keep`, only each table entry's length is tracked.
 */
function lzw(data: Uint8Array, sink: Sink, keep: boolean, earlyChange: number): void {
  const lengths = new Uint16Array(4096);
  const firsts = new Uint8Array(4096);
  const prefixes = new Int16Array(4096);
  const lastBytes = new Uint8Array(4096);
  for (let i = 0; i < 256; i++) {
    lengths[i] = 1;
    firsts[i] = i;
    prefixes[i] = -1;
    lastBytes[i] = i;
  }
  let next = 258;
  let width = 9;
  let previous = -1;
  let buffer = 0;
  let bits = 0;
  const scratch = new Uint8Array(4096);
  const emit = (code: number): void => {
    if (!keep) {
      sink.count(lengths[code] ?? 0);
      return;
    }
    const n = lengths[code] ?? 0;
    let c = code;
    for (let i = n - 1; i >= 0; i--) {
      scratch[i] = lastBytes[c] ?? 0;
      c = prefixes[c] ?? -1;
    }
    sink.push(scratch.slice(0, n));
  };
  for (let at = 0; at < data.length && !sink.over; at++) {
    buffer = ((buffer << 8) | (data[at] ?? 0)) & 0xffffff;
    bits += 8;
    while (bits >= width && !sink.over) {
      bits -= width;
      const code = (buffer >>> bits) & ((1 << width) - 1);
      if (code === 256) {
        next = 258;
        width = 9;
        previous = -1;
        continue;
      }
      if (code === 257) return;
      if (previous === -1) {
        if (code > 255) return; // damaged: the first code after a clear is a byte
        emit(code);
        previous = code;
        continue;
      }
      let entry: number;
      if (code < next) {
        entry = code;
      } else if (code === next) {
        entry = -1; // the KwKwK case: the previous string and its own first byte
      } else {
        return; // damaged
      }
      if (next < 4096) {
        lengths[next] = (lengths[previous] ?? 0) + 1;
        firsts[next] = firsts[previous] ?? 0;
        prefixes[next] = previous;
        lastBytes[next] = entry === -1 ? (firsts[previous] ?? 0) : (firsts[entry] ?? 0);
        next++;
      }
      emit(entry === -1 ? next - 1 : entry);
      previous = entry === -1 ? next - 1 : entry;
      if (next + earlyChange >= 1 << width && width < 12) width++;
    }
  }
}

/** §7.4.5: a length byte n, then n + 1 literal bytes (n < 128) or one byte repeated 257 − n times (n > 128); 128 ends. */
function runLength(data: Uint8Array, sink: Sink, keep: boolean): void {
  let at = 0;
  while (at < data.length && !sink.over) {
    const n = data[at] ?? 128;
    if (n === 128) return;
    if (n < 128) {
      const end = Math.min(data.length, at + 2 + n);
      if (keep) sink.push(data.subarray(at + 1, end));
      else sink.count(end - at - 1);
      at = end;
    } else {
      if (at + 1 >= data.length) return;
      if (keep) sink.push(new Uint8Array(257 - n).fill(data[at + 1] ?? 0));
      else sink.count(257 - n);
      at += 2;
    }
  }
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00;

/** §7.4.2: hex digit pairs, white space ignored, `>` ends; an odd last digit is followed by 0. */
function asciiHex(data: Uint8Array, sink: Sink): void {
  const out: number[] = [];
  let high = -1;
  for (const b of data) {
    if (b === 0x3e) break;
    if (isSpace(b)) continue;
    const v = b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x41 && b <= 0x46 ? b - 55 : b >= 0x61 && b <= 0x66 ? b - 87 : -1;
    if (v < 0) break; // damaged
    if (high < 0) high = v;
    else {
      out.push((high << 4) | v);
      high = -1;
    }
  }
  if (high >= 0) out.push(high << 4);
  sink.push(Uint8Array.from(out));
}

/** §7.4.3: groups of five characters `!`–`u` for four bytes, `z` for four zeros, `~>` ends. */
function ascii85(data: Uint8Array, sink: Sink): void {
  const out: number[] = [];
  let group = 0;
  let count = 0;
  for (const b of data) {
    if (b === 0x7e) break;
    if (isSpace(b)) continue;
    if (b === 0x7a && count === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    if (b < 0x21 || b > 0x75) break; // damaged
    group = group * 85 + (b - 0x21);
    if (++count === 5) {
      out.push((group >>> 24) & 0xff, (group >>> 16) & 0xff, (group >>> 8) & 0xff, group & 0xff);
      group = 0;
      count = 0;
    }
  }
  if (count > 1) {
    for (let i = count; i < 5; i++) group = group * 85 + 84;
    const tail = [(group >>> 24) & 0xff, (group >>> 16) & 0xff, (group >>> 8) & 0xff, group & 0xff];
    out.push(...tail.slice(0, count - 1));
  }
  sink.push(Uint8Array.from(out));
}

/** Decodes `data` through one counted filter, stopping past `limit` bytes of output. */
export function decodedLength(filter: string, data: Uint8Array, limit: number, options: { keep?: boolean; earlyChange?: number } = {}): Decoded {
  const keep = options.keep ?? false;
  const sink = new Sink(limit, keep);
  switch (filter) {
    case 'FlateDecode':
      flate(data, sink);
      break;
    case 'LZWDecode':
      lzw(data, sink, keep, options.earlyChange ?? 1);
      break;
    case 'RunLengthDecode':
      runLength(data, sink, keep);
      break;
    case 'ASCIIHexDecode':
      asciiHex(data, sink);
      break;
    case 'ASCII85Decode':
      ascii85(data, sink);
      break;
    default:
      return { length: 0 };
  }
  return sink.result();
}
