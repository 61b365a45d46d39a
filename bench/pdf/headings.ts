/**
 * Headings outside the bench's split (issue 16): folio's heading lines on docling's test PDFs
 * (`../shared/corpus/pdf/docling/*.pdf`) beside the headings of docling's own Markdown next to
 * each one (`*.md`). docling's output is another tool's, good on headings but not the truth:
 * a difference is judged on the page (sizes, weights, numbering, space, position). Levels are
 * shown, not scored (docling writes every heading `##`).
 *
 *   npm run bench:headings                    found / missed / extra per PDF and in all
 *   npm run bench:headings -- --list          then each PDF's missed (-) and extra (+) lines
 *   npm run bench:headings -- --all           then every line, matched ones (=) too
 *   npm run bench:headings -- --mode auto|ocr folio in another mode
 *
 * Heading lines match as heading-match.ts says (shared with bench/pdf/printed.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isServiceError } from '../../src/errors.ts';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { CORPUS_DIR } from '../../test/helpers/corpus.ts';
import { headingsOf, matchHeadings, type Heading } from './heading-match.ts';
import type { PdfMode } from './runner.ts';

const DOCLING_DIR = path.join(CORPUS_DIR, 'pdf', 'docling');

interface Args {
  mode: PdfMode;
  list: boolean;
  all: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { mode: 'fast', list: false, all: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--list') args.list = true;
    else if (flag === '--all') args.all = args.list = true;
    else if (flag === '--mode' && ['fast', 'auto', 'ocr'].includes(argv[i + 1] ?? '')) args.mode = argv[++i] as PdfMode;
    // `npm run bench -- --quick` passes it to every bench: eleven PDFs run whole in seconds.
    else if (flag === '--quick') continue;
    else {
      process.stderr.write(`bench:headings: unknown argument ${String(flag)}\nusage: tsx bench/pdf/headings.ts [--mode fast|auto|ocr] [--list] [--all]\n`);
      process.exit(2);
    }
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const out = (line = '') => process.stdout.write(`${line}\n`);
  const pdfs = fs.readdirSync(DOCLING_DIR).filter((f) => f.endsWith('.pdf') && fs.existsSync(path.join(DOCLING_DIR, f.replace(/\.pdf$/u, '.md')))).sort();
  out(`bench:headings: folio (mode ${args.mode}) against docling's Markdown on ${pdfs.length} PDFs (../shared/corpus/pdf/docling)`);
  let found = 0;
  let missed = 0;
  let extra = 0;
  for (const pdf of pdfs) {
    const reference = headingsOf(fs.readFileSync(path.join(DOCLING_DIR, pdf.replace(/\.pdf$/u, '.md')), 'utf8'));
    let got: Heading[];
    try {
      const options = parseOptions({ formats: ['markdown'], parsers: [{ type: 'pdf', mode: args.mode }] });
      got = headingsOf((await parse({ bytes: fs.readFileSync(path.join(DOCLING_DIR, pdf)), filename: pdf }, options)).markdown ?? '');
    } catch (err) {
      if (!isServiceError(err)) throw err;
      out(`  ${pdf}: ${err.code}`);
      continue;
    }
    const { matchOf, extra: extras } = matchHeadings(reference, got);
    const used = new Set(matchOf.filter((i) => i >= 0));
    const lines: string[] = [];
    reference.forEach((r, k) => {
      const i = matchOf[k] as number;
      if (i >= 0 && args.all) lines.push(`    = h${r.level}/h${(got[i] as Heading).level}  ${r.text.slice(0, 90)}`);
      if (i < 0) lines.push(`    - h${r.level}     ${r.text.slice(0, 90)}`);
    });
    for (const k of extras) {
      const g = got[k] as Heading;
      lines.push(`    +    h${g.level}  ${g.text.slice(0, 90)}`);
    }
    found += used.size;
    missed += reference.length - used.size;
    extra += got.length - used.size;
    out(`  ${pdf.padEnd(36)} found ${String(used.size).padStart(3)}  missed ${String(reference.length - used.size).padStart(3)}  extra ${String(got.length - used.size).padStart(3)}`);
    if (args.list) for (const line of lines) out(line);
  }
  out(`  ${'all'.padEnd(36)} found ${String(found).padStart(3)}  missed ${String(missed).padStart(3)}  extra ${String(extra).padStart(3)}`);
}

await main();
