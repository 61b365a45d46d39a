/**
 * Scanned PDFs made at test time from the corpus: a text PDF's page is rendered with pdftoppm to
 * a grayscale JPEG, and the JPEG becomes the only content of a page of a new PDF (an /Image
 * XObject with /DCTDecode, painted over the whole page), so the page has ink and no text layer,
 * as a scanner's PDF does. Text pages (Helvetica) can be mixed in.
 */
import { execFileSync } from 'node:child_process';
import { descendants } from '../helpers/process-tree.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { corpusPath } from '../helpers/corpus.ts';

export type FixturePage =
  /**
   * Page `page` of corpus file `file`, rendered at `dpi` (the scan's resolution); `stamp`: a line
   * of real text over the scan's top margin, as tools that stamp "Downloaded from …" add.
   */
  | { scan: { file: string[]; page: number; dpi?: number; stamp?: string } }
  /** A text page: lines of Helvetica, 14 pt. */
  | { text: string[] };

interface Jpeg {
  data: Buffer;
  width: number;
  height: number;
  components: number;
}

/** Width, height and colour components from a JPEG's start-of-frame marker (pdftoppm -gray -jpeg still writes three). */
function jpegSize(data: Buffer): { width: number; height: number; components: number } {
  let i = 2;
  while (i < data.length) {
    const marker = data[i + 1] as number;
    const length = data.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: data.readUInt16BE(i + 5), width: data.readUInt16BE(i + 7), components: data[i + 9] as number };
    }
    i += 2 + length;
  }
  throw new Error('no SOF marker in the JPEG');
}

export function renderJpeg(file: string[], page: number, dpi: number): Jpeg {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-ocr-fixture-'));
  try {
    const root = path.join(dir, 'page');
    execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-jpeg', '-singlefile', '-f', String(page), '-l', String(page), corpusPath(...file), root]);
    const data = fs.readFileSync(`${root}.jpg`);
    return { data, ...jpegSize(data) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function escapePdfText(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** A PDF whose pages are scans of corpus pages or Helvetica text, A4-sized for text pages. */
export function buildPdf(pages: FixturePage[]): Buffer {
  const objects: (string | Buffer)[] = [];
  const add = (body: string | Buffer) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pagesId = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const page of pages) {
    let width = 595;
    let height = 842;
    let content: string;
    let resources: string;
    if ('scan' in page) {
      const dpi = page.scan.dpi ?? 150;
      const jpeg = renderJpeg(page.scan.file, page.scan.page, dpi);
      width = (jpeg.width * 72) / dpi;
      height = (jpeg.height * 72) / dpi;
      const image = add(
        Buffer.concat([
          Buffer.from(
            `<< /Type /XObject /Subtype /Image /Width ${jpeg.width} /Height ${jpeg.height} /ColorSpace /${jpeg.components === 1 ? 'DeviceGray' : 'DeviceRGB'} /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.data.length} >>\nstream\n`,
          ),
          jpeg.data,
          Buffer.from('\nendstream'),
        ]),
      );
      content = `q ${width.toFixed(3)} 0 0 ${height.toFixed(3)} 0 0 cm /Im0 Do Q`;
      if (page.scan.stamp) content += ` BT /F1 7 Tf 36 ${(height - 18).toFixed(3)} Td (${escapePdfText(page.scan.stamp)}) Tj ET`;
      resources = `<< /XObject << /Im0 ${image} 0 R >> /Font << /F1 ${font} 0 R >> >>`;
    } else {
      content = `BT /F1 14 Tf 72 770 Td 18 TL ${page.text.map((line) => `(${escapePdfText(line)}) Tj T*`).join(' ')} ET`;
      resources = `<< /Font << /F1 ${font} 0 R >> >>`;
    }
    const stream = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    kids.push(
      add(`<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${width.toFixed(3)} ${height.toFixed(3)}] /Contents ${stream} 0 R /Resources ${resources} >>`),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;

  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'), Buffer.from('\nendobj\n')]);
    chunks.push(chunk);
    offset += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(chunks);
}

/** The OCR programs started below this test process that are still running (parse children start them now, not this process). */
export function ocrChildren(): string[] {
  return descendants()
    .filter((p) => p.state !== 'Z' && /tesseract|pdftoppm|^env$/.test(p.name))
    .map((p) => `${p.pid} ${p.name}`);
}
