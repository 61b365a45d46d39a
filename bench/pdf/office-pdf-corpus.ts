/**
 * The office documents of bench/pdf/office-pdf.ts: each Word, OpenDocument and RTF document of
 * the shared corpus (`../shared/corpus/office/{docx,odt,doc,rtf}`) printed to PDF by LibreOffice
 * (`soffice --headless --convert-to pdf`) into `bench/.cache/office-pdf/` (gitignored), beside
 * pandoc's HTML of the same file (`pandoc FILE -s -t html`), from which its truth is read
 * (office-pdf-truth.ts). Pandoc does not read `.doc`: a `.doc` is converted to `.docx` by LibreOffice first and
 * pandoc reads that (its headings are Word's heading styles as LibreOffice carries them over).
 *
 * Each LibreOffice run has a private profile (`-env:UserInstallation`, a temporary folder) so
 * parallel runs share none, and 60 s (its process group is killed after); pandoc has 30 s. A
 * document that does not convert is recorded as failed, with the reason, and left out.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';
import { CORPUS_DIR } from '../../test/helpers/corpus.ts';
import { entryCache, type CachedDocument } from './entry-cache.ts';
import { docxTableFlaws, odtTableFlaws, officeTruth } from './office-pdf-truth.ts';
import type { PageTruth } from './printed-truth.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const OFFICE_PDF_DIR = path.join(here, '..', '.cache', 'office-pdf');
const OFFICE_DIR = path.join(CORPUS_DIR, 'office');
/**
 * Bumped when the conversion changes: older cache entries are converted again. The truth is read
 * from the cached pandoc HTML at each run, so a change to office-pdf-truth.ts needs no bump.
 */
const CACHE_VERSION = 2;
const SOFFICE_SECONDS = 60;
const PANDOC_SECONDS = 30;
export const FORMATS = ['docx', 'odt', 'doc', 'rtf'] as const;
export type OfficeFormat = (typeof FORMATS)[number];

export interface OfficePdf {
  name: string;
  format: OfficeFormat;
  /** The document converted, relative to the corpus. */
  source: string;
  pdf: string;
  pages: number;
  truth: PageTruth;
}

interface CacheEntry extends CachedDocument {
  /** pandoc's HTML of the document; the truth is read from it at each run (office-pdf-truth.ts). */
  html?: string;
}

/** Every document of the four formats, as [name, format, absolute path], sorted by name. */
export function officeDocuments(): [string, OfficeFormat, string][] {
  const out: [string, OfficeFormat, string][] = [];
  for (const format of FORMATS) {
    const dir = path.join(OFFICE_DIR, format);
    for (const file of fs.readdirSync(dir)) if (file.endsWith(`.${format}`)) out.push([`${format}-${file.slice(0, -format.length - 1)}`, format, path.join(dir, file)]);
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

function pdfPages(bytes: Buffer): number {
  return bytes.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/gu)?.length ?? 0;
}

/** What to install, when a tool the bench needs is not on the machine. */
export function missingTools(): string[] {
  const missing: string[] = [];
  const found = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore', timeout: 60_000 }).error === undefined;
  if (!found('soffice')) missing.push('LibreOffice Writer (soffice; Debian/Ubuntu: apt-get install libreoffice-writer-nogui)');
  if (!found('pandoc')) missing.push('pandoc (Debian/Ubuntu: apt-get install pandoc)');
  return missing;
}

/** Runs a command in its own process group, killed whole after `seconds`; answers its stdout. */
function runBounded(command: string, args: string[], seconds: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      err = (err + b.toString('utf8')).slice(-400);
    });
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new Error(`${command}: over ${seconds} s`));
    }, seconds * 1000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`${command} exited ${code}: ${err.trim().split('\n').at(-1) ?? ''}`));
    });
  });
}

/** LibreOffice converts `file` to `target` (pdf, docx) in `outDir`; answers the file written. */
export async function sofficeConvert(file: string, target: 'pdf' | 'docx', outDir: string): Promise<string> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-soffice-'));
  try {
    await runBounded('soffice', [`-env:UserInstallation=${pathToFileURL(profile).href}`, '--headless', '--norestore', '--convert-to', target, '--outdir', outDir, file], SOFFICE_SECONDS);
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
  const written = path.join(outDir, `${path.basename(file, path.extname(file))}.${target}`);
  if (!fs.existsSync(written)) throw new Error(`soffice wrote no ${target} (a file it cannot read)`);
  return written;
}

/** pandoc's standalone HTML of a docx, odt or rtf file. */
export function pandocHtml(file: string): Promise<string> {
  return runBounded('pandoc', [file, '-s', '-t', 'html', '--wrap=none'], PANDOC_SECONDS);
}

/** One document: its PDF into `pdfFile`, its truth from pandoc (a .doc through a docx). */
async function convertOne(format: OfficeFormat, file: string, pdfFile: string): Promise<{ pages: number; html: string }> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-office-pdf-'));
  try {
    // A copy under a plain name: soffice names its output after the input, and a name with
    // spaces or a leading dash is no concern then.
    const input = path.join(work, `document.${format}`);
    fs.copyFileSync(file, input);
    const outDir = path.join(work, 'out');
    fs.mkdirSync(outDir);
    const pdf = await sofficeConvert(input, 'pdf', outDir);
    const bytes = fs.readFileSync(pdf);
    const forPandoc = format === 'doc' ? await sofficeConvert(input, 'docx', outDir) : input;
    const html = await pandocHtml(forPandoc);
    fs.writeFileSync(pdfFile, bytes);
    return { pages: pdfPages(bytes), html };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The printed documents, converting those missing from the cache (a few minutes the first
 * time). `log` hears progress. Throws, saying what to install, when soffice or pandoc is missing
 * and something is left to convert.
 */
export async function officePdfs(log: (line: string) => void): Promise<OfficePdf[]> {
  fs.mkdirSync(OFFICE_PDF_DIR, { recursive: true });
  const all = officeDocuments();
  const cache = entryCache<CacheEntry>(OFFICE_PDF_DIR, CACHE_VERSION);
  const missing = all.filter(([name]) => cache.read(name) === undefined);
  if (missing.length > 0) {
    const tools = missingTools();
    if (tools.length > 0) throw new Error(`bench:office-pdf converts the corpus's office documents the first time and needs ${tools.join(' and ')}; scripts/bench-setup.sh installs both`);
    log(`converting ${missing.length} of ${all.length} documents with LibreOffice and pandoc into ${path.relative(process.cwd(), OFFICE_PDF_DIR)} …`);
    let done = 0;
    for (const [name, format, file] of missing) {
      const source = path.relative(CORPUS_DIR, file);
      let entry: CacheEntry;
      try {
        const { pages, html } = await convertOne(format, file, path.join(OFFICE_PDF_DIR, `${name}.pdf`));
        entry = { version: CACHE_VERSION, source, pages, html };
      } catch (err) {
        entry = cache.failed(source, err);
      }
      cache.write(name, entry);
      if (++done % 25 === 0) log(`  ${done}/${missing.length}`);
    }
  }
  const out: OfficePdf[] = [];
  for (const [name, format] of all) {
    const entry = cache.read(name);
    if (entry?.html === undefined) continue;
    // A docx's title block is its Title-style paragraph; an RTF's or ODT's is metadata, not printed.
    // What pandoc drops (an ODT's merged cells and nested tables, a docx row's skipped columns) is read from the source.
    const tableFlaws = format === 'odt' || format === 'docx' ? sourceTableFlaws(format, path.join(CORPUS_DIR, entry.source)) : undefined;
    const truth = officeTruth(entry.html, { title: format === 'docx' || format === 'doc', ...(tableFlaws ? { tableFlaws } : {}) });
    out.push({ name, format, source: entry.source, pdf: path.join(OFFICE_PDF_DIR, `${name}.pdf`), pages: entry.pages, truth });
  }
  return out;
}

/**
 * An ODT's or a docx's top-level tables with pandoc's known misreadings (office-pdf-truth.ts
 * odtTableFlaws, docxTableFlaws); undefined when unreadable.
 */
function sourceTableFlaws(format: OfficeFormat, file: string): (string | undefined)[] | undefined {
  const name = format === 'odt' ? 'content.xml' : 'word/document.xml';
  try {
    const part = unzipSync(fs.readFileSync(file), { filter: (f) => f.name === name })[name];
    if (!part) return undefined;
    return format === 'odt' ? odtTableFlaws(strFromU8(part)) : docxTableFlaws(strFromU8(part));
  } catch {
    return undefined;
  }
}

/** The documents that failed to convert, with their reason (from the cache). */
export function failedConversions(): { name: string; error: string }[] {
  const out: { name: string; error: string }[] = [];
  for (const [name] of officeDocuments()) {
    try {
      const entry = JSON.parse(fs.readFileSync(path.join(OFFICE_PDF_DIR, `${name}.json`), 'utf8')) as CacheEntry;
      if (entry.version === CACHE_VERSION && entry.error) out.push({ name, error: entry.error });
    } catch {
      // not converted
    }
  }
  return out;
}
