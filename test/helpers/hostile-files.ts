/**
 * Hostile files, built in memory by the tests that need them (nothing is committed): zip bombs
 * whose headers lie about a part's size, PDFs whose content stream or image claims far more than
 * it weighs, HTML with millions of nodes or a nesting depth of 100,000, and a PDF whose every
 * page carries the same single line. Each generator takes well under a second.
 *
 * Big inflated outputs are made without ever holding them: one chunk of a repeated pattern is
 * deflated once with a sync flush (byte-aligned, no back-reference outside itself, no final
 * block), the compressed chunk is repeated, and a final empty block closes the stream. Deflate's
 * ceiling is ~1032:1, so 1 GiB of inflated text weighs ~1 MB.
 */
import zlib from 'node:zlib';

const MiB = 1024 * 1024;

/**
 * A raw deflate stream that inflates to `head`, then `pattern` repeated until `totalBytes` is
 * reached (rounded up to whole chunks of ~1 MiB), then `tail`.
 */
export function deflateRepeated(head: string, pattern: string, totalBytes: number, tail = ''): Buffer {
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH, level: 9 };
  const reps = Math.max(1, Math.floor(MiB / pattern.length));
  const chunkText = pattern.repeat(reps);
  const chunk = zlib.deflateRawSync(Buffer.from(chunkText), flush);
  const count = Math.max(1, Math.ceil((totalBytes - head.length - tail.length) / chunkText.length));
  const parts: Buffer[] = [];
  if (head) parts.push(zlib.deflateRawSync(Buffer.from(head), flush));
  for (let i = 0; i < count; i++) parts.push(chunk);
  if (tail) parts.push(zlib.deflateRawSync(Buffer.from(tail), flush));
  // BFINAL=1, fixed Huffman, end-of-block: the empty last block.
  parts.push(Buffer.from([0x03, 0x00]));
  return Buffer.concat(parts);
}

/** Packs bits LSB-first, as deflate does (RFC 1951 §3.1.1); Huffman codes go in MSB-first. */
class BitWriter {
  private readonly bytes: number[] = [];
  private acc = 0;
  private n = 0;
  get bitLength(): number {
    return this.bytes.length * 8 + this.n;
  }
  bits(value: number, count: number): void {
    for (let i = 0; i < count; i++) this.bit((value >>> i) & 1);
  }
  code(value: number, count: number): void {
    for (let i = count - 1; i >= 0; i--) this.bit((value >>> i) & 1);
  }
  private bit(b: number): void {
    this.acc |= b << this.n;
    if (++this.n === 8) {
      this.bytes.push(this.acc);
      this.acc = 0;
      this.n = 0;
    }
  }
  /** The whole bytes written so far (the caller is aligned). */
  take(): Buffer {
    const out = Buffer.from(this.bytes);
    this.bytes.length = 0;
    return out;
  }
  finish(): Buffer {
    if (this.n > 0) this.bytes.push(this.acc);
    this.acc = 0;
    this.n = 0;
    return this.take();
  }
}

function fixedLiteral(w: BitWriter, byte: number): void {
  if (byte < 144) w.code(0x30 + byte, 8);
  else w.code(0x190 + byte - 144, 9);
}

/** Length 258 (code 285), distance 1 (code 0), in the fixed Huffman code: 13 bits, 258 bytes. */
function fixedMatch(w: BitWriter): void {
  w.code(0xc5, 8);
  w.code(0, 5);
}

/**
 * A raw deflate stream of ONE fixed-Huffman block (no stored blocks, no block boundaries to
 * trip over): `head`, then `run` repeated until about `totalBytes` (a literal and matches of
 * distance 1), then `tail`. This is the bomb an inflater writing into a fixed buffer keeps
 * decoding (and discarding) to the end; ~159:1, so 1 GiB weighs ~6.8 MB.
 */
export function deflateRun(head: string, run: string, totalBytes: number, tail = ''): Buffer {
  const w = new BitWriter();
  w.bits(1, 1); // BFINAL
  w.bits(1, 2); // BTYPE 01: fixed Huffman
  for (const b of Buffer.from(head + run, 'latin1')) fixedLiteral(w, b);
  let matches = Math.max(0, Math.ceil((totalBytes - head.length - tail.length - 1) / 258));
  const parts: Buffer[] = [];
  // Matches one by one until byte-aligned, then 8 at a time (104 bits: 13 whole bytes) repeated.
  while (matches > 0 && w.bitLength % 8 !== 0) {
    fixedMatch(w);
    matches--;
  }
  parts.push(w.take());
  if (matches >= 8) {
    const unit = new BitWriter();
    for (let i = 0; i < 8; i++) fixedMatch(unit);
    const group = unit.finish();
    const groups = Math.floor(matches / 8);
    parts.push(Buffer.alloc(groups * group.length, group));
    matches -= groups * 8;
  }
  for (; matches > 0; matches--) fixedMatch(w);
  for (const b of Buffer.from(tail, 'latin1')) fixedLiteral(w, b);
  w.code(0, 7); // end of block (256)
  parts.push(w.finish());
  return Buffer.concat(parts);
}

/** The same stream in zlib framing (what a PDF's FlateDecode reads). The Adler-32 is not checked by readers, and is left 0. */
export function zlibRepeated(head: string, pattern: string, totalBytes: number, tail = ''): Buffer {
  return Buffer.concat([Buffer.from([0x78, 0xda]), deflateRepeated(head, pattern, totalBytes, tail), Buffer.alloc(4)]);
}

export interface ZipEntry {
  name: string;
  /** Deflated (method 8) bytes or stored (method 0) bytes. */
  data: Buffer;
  method: 0 | 8;
  /** The uncompressed size written in both headers: the truth, or a lie. */
  declaredSize: number;
  crc?: number;
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A file entry whose headers tell the truth. */
export function zipEntry(name: string, text: string, method: 0 | 8 = 8): ZipEntry {
  const raw = Buffer.from(text);
  return { name, data: method === 8 ? zlib.deflateRawSync(raw) : raw, method, declaredSize: raw.length, crc: crc32(raw) };
}

/** A zip file from its entries: local headers, data, central directory, end record (no zip64). */
export function buildZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const crc = e.crc ?? 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export interface ZipBombOptions {
  /** What the part really inflates to (default 1 GiB). */
  inflatedBytes?: number;
  /** What its headers claim (default 200 KB). */
  declaredBytes?: number;
}

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** The content types and package relationships a .docx needs around its `word/document.xml`. */
export function docxPackageParts(method: 0 | 8 = 8): ZipEntry[] {
  return [
    zipEntry(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      method,
    ),
    zipEntry(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      method,
    ),
  ];
}

/** A .docx whose `word/document.xml` declares ~200 KB and really inflates to `inflatedBytes` (one paragraph of 'a's, in one deflate block). */
export function docxZipBomb(options: ZipBombOptions = {}): Buffer {
  const inflated = options.inflatedBytes ?? 1024 * MiB;
  const declared = options.declaredBytes ?? 200 * 1024;
  const body = deflateRun(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W_NS}"><w:body><w:p><w:r><w:t>`,
    'a',
    inflated,
    '</w:t></w:r></w:p></w:body></w:document>',
  );
  return buildZip([
    ...docxPackageParts(),
    { name: 'word/document.xml', data: body, method: 8, declaredSize: declared },
  ]);
}

/** An .odt whose `content.xml` declares ~200 KB and really inflates to `inflatedBytes` (one paragraph of 'a's, in one deflate block). */
export function odtZipBomb(options: ZipBombOptions = {}): Buffer {
  const inflated = options.inflatedBytes ?? 1024 * MiB;
  const declared = options.declaredBytes ?? 200 * 1024;
  const body = deflateRun(
    '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text><text:p>',
    'a',
    inflated,
    '</text:p></office:text></office:body></office:document-content>',
  );
  return buildZip([
    zipEntry('mimetype', 'application/vnd.oasis.opendocument.text', 0),
    zipEntry(
      'META-INF/manifest.xml',
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    ),
    { name: 'content.xml', data: body, method: 8, declaredSize: declared },
  ]);
}

/** A PDF from its numbered objects (1-based; object 1 is the catalog), with a correct xref table. */
export function buildPdf(objects: ReadonlyArray<string | Buffer>): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'), Buffer.from('\nendobj\n')]);
    chunks.push(chunk);
    length += chunk.length;
  });
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f ', ...offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n `)].join('\n');
  chunks.push(Buffer.from(`${xref}\ntrailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(chunks);
}

function streamObject(dict: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';

/** A one-page PDF whose FlateDecode content stream inflates to `inflatedBytes` (default 400 MB) of path operators in one path. */
export function pdfPathBomb(options: { inflatedBytes?: number } = {}): Buffer {
  const content = zlibRepeated('0 0 m\n', '10 10 l 20 0 l\n', options.inflatedBytes ?? 400 * MiB, 'S\n');
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents 4 0 R >>',
    streamObject('/Filter /FlateDecode', content),
  ]);
}

/** A one-page PDF drawing one `side`×`side` RGB image XObject (default 20000) whose compressed data is tiny. */
export function pdfHugeImage(options: { side?: number } = {}): Buffer {
  const side = options.side ?? 20_000;
  const data = zlib.deflateSync(Buffer.alloc(side * 3, 0x80));
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>',
    streamObject('', Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q\n')),
    streamObject(`/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`, data),
  ]);
}

/**
 * A PDF of `pages` pages (default 10,000), every one drawing the same single `line` in Helvetica
 * at the same place: `y` points from the bottom of a 792-pt page (default 400, mid-page; 750 puts
 * it in the top band where running headers sit). All pages share one content stream, so the
 * file stays small.
 */
export function pdfRepeatedLine(options: { pages?: number; line?: string; y?: number } = {}): Buffer {
  const pages = options.pages ?? 10_000;
  const line = (options.line ?? 'The same line on every page.').replace(/[()\\]/g, '\\$&');
  const first = 5; // the first page object
  const kids = Array.from({ length: pages }, (_, i) => `${first + i} 0 R`).join(' ');
  const objects: Array<string | Buffer> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    FONT,
    streamObject('', Buffer.from(`BT /F1 12 Tf 72 ${options.y ?? 400} Td (${line}) Tj ET\n`, 'latin1')),
  ];
  for (let i = 0; i < pages; i++) {
    objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>');
  }
  return buildPdf(objects);
}

/** An HTML page of `nodes` sibling paragraphs (default 2,000,000 elements). */
export function htmlManyNodes(options: { nodes?: number } = {}): Buffer {
  const nodes = options.nodes ?? 2_000_000;
  return Buffer.from(`<!doctype html><html><head><title>Many</title></head><body>${'<p>x</p>'.repeat(nodes)}</body></html>`);
}

/** An HTML page of `depth` nested elements (default 100,000). */
export function htmlDeepNesting(options: { depth?: number } = {}): Buffer {
  const depth = options.depth ?? 100_000;
  return Buffer.from(`<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}</body></html>`);
}
