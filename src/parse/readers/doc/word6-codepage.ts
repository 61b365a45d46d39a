/**
 * The code pages of Word 6/95 text: 8-bit characters in the code page of the document's
 * language (FIB lid), of the Macintosh character set (FIB chse 256), or of a run's font (the
 * font's charset in the font table). Double-byte code pages (Japanese, Chinese, Korean) keep
 * one character per CP: a two-byte character decodes to itself followed by a NUL, which the
 * story reader skips, so CPs still index the text. Decoding through iconv-lite (Node's
 * TextDecoder reads windows-1252 as Latin-1).
 */
import iconv from 'iconv-lite';

/** Windows code page of a language id's primary language (LANGID low 10 bits). */
const BY_PRIMARY_LANGUAGE = new Map<number, number>([
  [0x01, 1256], // Arabic
  [0x02, 1251], // Bulgarian
  [0x04, 936], // Chinese (per sublanguage below)
  [0x05, 1250], // Czech
  [0x08, 1253], // Greek
  [0x0d, 1255], // Hebrew
  [0x0e, 1250], // Hungarian
  [0x11, 932], // Japanese
  [0x12, 949], // Korean
  [0x15, 1250], // Polish
  [0x18, 1250], // Romanian
  [0x19, 1251], // Russian
  [0x1a, 1250], // Croatian / Serbian (Latin)
  [0x1b, 1250], // Slovak
  [0x1c, 1250], // Albanian
  [0x1e, 874], // Thai
  [0x1f, 1254], // Turkish
  [0x20, 1256], // Urdu
  [0x22, 1251], // Ukrainian
  [0x23, 1251], // Belarusian
  [0x24, 1250], // Slovenian
  [0x25, 1257], // Estonian
  [0x26, 1257], // Latvian
  [0x27, 1257], // Lithuanian
  [0x29, 1256], // Farsi
  [0x2a, 1258], // Vietnamese
  [0x2f, 1251], // Macedonian
]);

/** The code page of a LANGID; 1252 for Western languages and anything unknown. */
export function codePageOfLid(lid: number): number {
  if (lid === 0x0404 || lid === 0x0c04 || lid === 0x1404) return 950; // Chinese (Taiwan, Hong Kong, Macao)
  if (lid === 0x0c1a) return 1251; // Serbian (Cyrillic)
  return BY_PRIMARY_LANGUAGE.get(lid & 0x3ff) ?? 1252;
}

/** Windows code page of a font charset (LOGFONT lfCharSet); undefined for ANSI, default and symbol fonts. */
export function codePageOfCharset(chs: number): number | undefined {
  switch (chs) {
    case 77:
      return 10000; // Mac Roman
    case 128:
      return 932;
    case 129:
      return 949;
    case 134:
      return 936;
    case 136:
      return 950;
    case 161:
      return 1253;
    case 162:
      return 1254;
    case 163:
      return 1258;
    case 177:
      return 1255;
    case 178:
      return 1256;
    case 186:
      return 1257;
    case 204:
      return 1251;
    case 222:
      return 874;
    case 238:
      return 1250;
    default:
      return undefined;
  }
}

function label(codePage: number): string {
  switch (codePage) {
    case 932:
      return 'shift_jis';
    case 936:
      return 'gbk';
    case 949:
      return 'euc-kr';
    case 950:
      return 'big5';
    case 874:
      return 'windows-874';
    case 10000:
      return 'macintosh';
    default:
      return `windows-${codePage}`;
  }
}

export function isDoubleByte(codePage: number): boolean {
  return codePage === 932 || codePage === 936 || codePage === 949 || codePage === 950;
}

/** Whether a byte starts a two-byte character in a double-byte code page. */
export function isLeadByte(codePage: number, byte: number): boolean {
  if (codePage === 932) return (byte >= 0x81 && byte <= 0x9f) || (byte >= 0xe0 && byte <= 0xfc);
  return byte >= 0x81 && byte <= 0xfe;
}

function decodeBytes(codePage: number, bytes: Buffer): string {
  const name = label(codePage);
  return iconv.decode(bytes, iconv.encodingExists(name) ? name : 'windows-1252');
}

/**
 * Bytes of a single-byte code page, one character each (iconv-lite's single-byte tables map
 * every byte to one BMP character, control bytes to themselves), so CPs keep indexing the text.
 */
export function decodeSingleBytes(codePage: number, bytes: Buffer): string {
  return decodeBytes(codePage, bytes);
}

/** One two-byte character of a double-byte code page. */
export function decodePair(codePage: number, lead: number, trail: number): string {
  return decodeBytes(codePage, Buffer.of(lead, trail));
}
