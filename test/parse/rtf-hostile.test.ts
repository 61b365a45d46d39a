/**
 * The .rtf reader on every corpus file, on big and hostile input: linear time on a 10 MB
 * document, deep nesting and truncation as CORRUPT_FILE, and a seeded fuzz loop over the corpus
 * (truncated, bit-flipped, spliced variants) that must read or fail with a ServiceError, fast.
 */
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../src/errors.ts';
import { readRtf } from '../../src/parse/readers/rtf/index.ts';
import { corpusFiles, readCorpus } from '../helpers/corpus.ts';
import { readInput, serviceFailure } from '../helpers/read-input.ts';
import { mulberry32 as random } from '../helpers/prng.ts';

const files = corpusFiles('office/rtf', /\.rtf$/);

function readBytes(bytes: Uint8Array): ReturnType<typeof readRtf> {
  return readRtf(readInput('rtf', bytes));
}

/** Reads, and returns 'ok' or the ServiceError code; any other exception fails the test. */
async function outcome(bytes: Uint8Array): Promise<string> {
  try {
    await readBytes(bytes);
    return 'ok';
  } catch (err) {
    if (isServiceError(err)) return err.code;
    throw err;
  }
}

/**
 * Word-like RTF of about `mb` megabytes: paragraphs heavy with formatting control words, a
 * hyperlink field, a two-cell table row every four paragraphs, and a picture's hex data
 * (30% of the bytes) in the middle.
 */
function wordLike(mb: number): Buffer {
  const run = '{\\rtlch\\fcs1 \\af31507 \\ltrch\\fcs0 \\insrsid1234567 ';
  const para =
    '\\pard\\plain \\ltrpar\\ql \\li0\\ri0\\sa160\\sl259\\slmult1\\widctlpar\\wrapdefault\\aspalpha\\aspnum\\faauto\\adjustright\\rin0\\lin0\\itap0 ' +
    '\\rtlch\\fcs1 \\af31507\\afs22\\alang1025 \\ltrch\\fcs0 \\f31506\\fs22\\lang1033\\langfe1033\\cgrid\\langnp1033\\langfenp1033 ' +
    `${run}Ein Satz mit \\'e4\\'f6\\'fc, der ungef\\'e4hr achtzig Zeichen lang ist, wie in einem Brief.}` +
    '{\\rtlch\\fcs1 \\af31507 \\ltrch\\fcs0 \\b\\insrsid1234567  Fett}' +
    `{\\field{\\*\\fldinst ${run} HYPERLINK "https://example.com/" }}{\\fldrslt ${run}\\cs15\\ul\\cf2 Link}}}` +
    `${run}.\\par }\n`;
  const row =
    '\\trowd \\irow0\\irowband0\\ltrrow\\ts11\\trgaph108\\trleft-108\\trftsWidth1\\trautofit1 \\clvertalt\\clbrdrt\\brdrs\\brdrw10 \\cltxlrtb\\clftsWidth3\\clwWidth4675 \\cellx4567' +
    '\\clvertalt\\cltxlrtb\\clftsWidth3\\clwWidth4675 \\cellx9242\\pard\\plain \\ltrpar\\ql \\li0\\ri0\\widctlpar\\intbl\\wrapdefault ' +
    `${run}Zelle eins\\cell Zelle zwei\\cell }\\pard\\plain \\intbl {\\trowd \\cellx4567\\cellx9242\\row }\n`;
  const unit = para.repeat(4) + row;
  const hexLine = `${'89504e470d0a1a0a0000000d49484452000001000000010008060000'.repeat(2)}\n`;
  const picture = `{\\*\\shppict{\\pict\\pngblip\\picw100\\pich100 ${hexLine.repeat(Math.ceil((mb * 1024 * 1024 * 0.3) / hexLine.length))}}}`;
  const units = Math.ceil((mb * 1024 * 1024 * 0.7) / unit.length);
  const body = `${unit.repeat(units >> 1)}${picture}${unit.repeat(units - (units >> 1))}`;
  return Buffer.from(`{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Arial;}}${body}}`, 'latin1');
}

describe('rtf reader: every corpus file', () => {
  it('reads all of them (25 files)', async () => {
    expect(files.length).toBe(25);
    for (const file of files) expect(`${file}: ${await outcome(readCorpus(file))}`).toBe(`${file}: ok`);
  });
});

describe('rtf reader: hostile input', () => {
  it('parses a 10 MB Word-like document in linear time (about a second alone; bounded at 5 s for a loaded machine)', async () => {
    /** The best of two runs: other test files share the machine. */
    const timed = async (bytes: Buffer): Promise<{ ms: number; document: Document }> => {
      let best = Infinity;
      let document: Document | undefined;
      for (let run = 0; run < 2; run++) {
        const started = performance.now();
        document = (await readBytes(bytes)).document;
        best = Math.min(best, performance.now() - started);
      }
      return { ms: best, document: document as Document };
    };
    const quarter = await timed(wordLike(2.5));
    const bytes = wordLike(10);
    expect(bytes.length).toBeGreaterThan(10 * 1024 * 1024);
    const { ms, document } = await timed(bytes);
    const paragraphs = document.body.querySelectorAll('p');
    expect(paragraphs.length).toBeGreaterThan(9000);
    expect(paragraphs.length).toBeLessThan(4.4 * quarter.document.body.querySelectorAll('p').length);
    expect(paragraphs[0]?.innerHTML).toBe('Ein Satz mit äöü, der ungefähr achtzig Zeichen lang ist, wie in einem Brief.<strong> Fett</strong><a href="https://example.com/">Link</a>.');
    expect(document.body.querySelectorAll('td').length).toBe(2 * document.body.querySelectorAll('table').length);
    // A bound for a shared CI machine (alone it takes about a second): what it catches is a hang or super-linear work.
    expect(ms).toBeLessThan(5000);
    // Linear: four times the bytes take about four times the time; quadratic work would take sixteen.
    expect(ms).toBeLessThan(7 * quarter.ms + 100);
  });

  it('refuses 100,000 nested groups with CORRUPT_FILE, fast', async () => {
    const bytes = Buffer.from(`{\\rtf1 ${'{'.repeat(100_000)}x${'}'.repeat(100_001)}`, 'latin1');
    const started = performance.now();
    expect((await serviceFailure(readBytes(bytes))).code).toBe('CORRUPT_FILE');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses a truncated file, an empty one and one that is not RTF with CORRUPT_FILE', async () => {
    const whole = readCorpus('office/rtf/kreuzberg-extraction_test.rtf');
    const truncated = await serviceFailure(readBytes(whole.subarray(0, whole.length / 2)));
    expect(truncated.code).toBe('CORRUPT_FILE');
    expect(truncated.message).toMatch(/truncated/);
    expect((await serviceFailure(readBytes(Buffer.alloc(0)))).code).toBe('CORRUPT_FILE');
    expect((await serviceFailure(readBytes(Buffer.from('PK\u0003\u0004 not rtf')))).code).toBe('CORRUPT_FILE');
  });

  it('reads a document after a UTF-8 byte order mark and white space, as detect() accepts it', async () => {
    const { document } = await readBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(' \r\n{\\rtf1 Hello\\par}', 'latin1')]));
    expect(document.body.innerHTML).toBe('<p>Hello</p>');
  });

  it('skips \\bin data even when it holds braces and backslashes', async () => {
    const { document } = await readBytes(Buffer.from('{\\rtf1 before {\\pict\\bin6 }{\\\\}{}after\\par}', 'latin1'));
    expect(document.body.innerHTML).toBe('<p>before <img alt="Image">after</p>');
  });

  it('fuzz: 300 damaged variants of corpus files read or fail with a ServiceError, each fast', async () => {
    const next = random(20261122);
    const sources = files.map((file) => readCorpus(file)).filter((bytes) => bytes.length < 60_000);
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const source = sources[Math.floor(next() * sources.length)] as Buffer;
      const bytes = Buffer.from(source);
      const mode = i % 3;
      let variant: Buffer = bytes;
      if (mode === 0) {
        variant = bytes.subarray(0, Math.floor(next() * bytes.length));
      } else if (mode === 1) {
        const flips = 1 + Math.floor(next() * 20);
        for (let f = 0; f < flips; f++) {
          const at = Math.floor(next() * bytes.length);
          bytes[at] = (bytes[at] as number) ^ (1 << Math.floor(next() * 8));
        }
      } else {
        const at = Math.floor(next() * bytes.length);
        const junk = ['{'.repeat(50), '\\bin999999 ', '\\u-5\\uc9 ', "\\'", '\\*\\', '}}}}', '\\trowd\\clvmrg\\cellx-5\\row\\row'][Math.floor(next() * 7)] as string;
        variant = Buffer.concat([bytes.subarray(0, at), Buffer.from(junk, 'latin1'), bytes.subarray(at)]);
      }
      const started = performance.now();
      const result = await outcome(variant);
      expect(performance.now() - started).toBeLessThan(1000);
      outcomes.set(result, (outcomes.get(result) ?? 0) + 1);
    }
    expect([...outcomes.keys()].sort()).toEqual(['CORRUPT_FILE', 'ok']);
  });
});
