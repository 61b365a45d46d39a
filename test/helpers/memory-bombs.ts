/**
 * Small files that need a great deal of memory to read, built on the fly (tests of the parse
 * pool's memory cap, bench/hostile.ts). Each is deflated chunk by chunk, so building one never
 * holds its inflated size in memory.
 */
import zlib from 'node:zlib';

/** Deflates `count` copies of `chunk` (zlib format, or raw deflate for zip entries) without holding them all. */
async function deflateRepeated(chunk: Buffer, count: number, raw = false, head = Buffer.alloc(0), tail = Buffer.alloc(0)): Promise<Buffer> {
  const deflate = raw ? zlib.createDeflateRaw({ level: 6 }) : zlib.createDeflate({ level: 6 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const write = (b: Buffer) => new Promise<void>((resolve) => (deflate.write(b) ? resolve() : deflate.once('drain', resolve)));
  await write(head);
  for (let i = 0; i < count; i++) await write(chunk);
  deflate.end(tail);
  await done;
  return Buffer.concat(out);
}

/** A PDF of the given objects (1-based, in order), with a correct xref table. */
function pdfOf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let size = parts[0]?.length ?? 0;
  objects.forEach((body, i) => {
    offsets.push(size);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'), Buffer.from('\nendobj\n')]);
    parts.push(obj);
    size += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`));
  return Buffer.concat(parts);
}

function streamObject(dict: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);
}

/** One page whose content stream inflates to `inflatedMb` MB of path operators (moveto/lineto, no paint). */
export async function pathOperatorPdf(inflatedMb = 400): Promise<Buffer> {
  // A block shorter than deflate's 32 KB window, repeated: 400 MB deflate to well under 1 MB.
  let block = '';
  for (let i = 0; i < 200; i++) block += `${i % 600} ${(i * 7) % 800} m ${(i * 3) % 600} ${(i * 11) % 800} l\n`;
  const ops = block.repeat(Math.floor((1024 * 1024) / block.length));
  const content = await deflateRepeated(Buffer.from(ops, 'latin1'), inflatedMb, false, Buffer.alloc(0), Buffer.from('S\n'));
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>',
    streamObject('/Filter /FlateDecode', content),
  ]);
}

/**
 * One page showing one `side`×`side` RGB image (zeros, deflated: about 1 MB for 20000, 1.7 MB for
 * 24000). pdf.js gathers the inflated stream (side² × 3 bytes) in many small chunks before it
 * copies them into one buffer, and swallows a failed allocation of that buffer as an image it
 * could not decode. A test that wants the memory cap to answer picks `side` so that the chunks
 * alone pass the cap by hundreds of MB: a cap reached only at the copy is reached, or not, by
 * how much memory the machine has to give at that moment.
 */
export async function hugeImagePdf(side = 20_000): Promise<Buffer> {
  const row = Buffer.alloc(side * 3);
  const image = await deflateRepeated(row, side);
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im0 5 0 R >> >> >>',
    streamObject('', Buffer.from('q 612 0 0 792 0 0 cm /Im0 Do Q\n')),
    streamObject(`/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`, image),
  ]);
}

interface ZipEntry {
  name: string;
  /** Raw-deflated bytes. */
  data: Buffer;
  /** What the headers claim (a zip bomb lies here). */
  declaredSize: number;
  crc: number;
}

function zipOf(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

async function honest(name: string, text: string): Promise<ZipEntry> {
  const bytes = Buffer.from(text);
  return { name, data: zlib.deflateRawSync(bytes), declaredSize: bytes.length, crc: zlib.crc32(bytes) };
}

/** A `.docx` whose `word/document.xml` claims 200 KB and inflates to `inflatedMb` MB of paragraphs. */
export async function docxZipBomb(inflatedMb = 1024): Promise<Buffer> {
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const para = Buffer.from('<w:p><w:r><w:t>bomb</w:t></w:r></w:p>'.repeat(27_000).slice(0, 1024 * 1024 - 1024 * 1024 % 37));
  const body = await deflateRepeated(para, inflatedMb, true, Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:document ${w}><w:body>`), Buffer.from('</w:body></w:document>'));
  return zipOf([
    await honest('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
    await honest('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
    { name: 'word/document.xml', data: body, declaredSize: 200 * 1024, crc: 0 },
  ]);
}

/** An `.odt` whose `content.xml` claims 200 KB and inflates to `inflatedMb` MB of paragraphs. */
export async function odtZipBomb(inflatedMb = 1024): Promise<Buffer> {
  const ns = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  const para = Buffer.from('<text:p>bomb</text:p>'.repeat(50_000).slice(0, 1024 * 1024 - 1024 * 1024 % 21));
  const body = await deflateRepeated(para, inflatedMb, true, Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns} office:version="1.2"><office:body><office:text>`), Buffer.from('</office:text></office:body></office:document-content>'));
  const mimetype = Buffer.from('application/vnd.oasis.opendocument.text');
  return zipOf([
    // ODF wants `mimetype` first and stored; a deflated one is read by the lenient readers too.
    { name: 'mimetype', data: zlib.deflateRawSync(mimetype), declaredSize: mimetype.length, crc: zlib.crc32(mimetype) },
    await honest('META-INF/manifest.xml', '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'),
    { name: 'content.xml', data: body, declaredSize: 200 * 1024, crc: 0 },
  ]);
}

/** HTML of `depth` nested elements around a little text: deep trees are where DOM walkers recurse. */
export function deepHtml(depth = 1_000_000): Buffer {
  return Buffer.from(`<!doctype html><html><body>${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}</body></html>`);
}

/** About `mb` MB of flat HTML: many small elements (a large DOM, not a deep one). */
export function hugeHtml(mb = 40): Buffer {
  const row = '<p><a href="https://example.org/x">link</a> <b>bold</b> <i>it</i></p>\n';
  return Buffer.from(`<!doctype html><html><body>${row.repeat(Math.floor((mb * 1024 * 1024) / row.length))}</body></html>`);
}
