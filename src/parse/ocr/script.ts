/**
 * Is an OCRed page written in a script the configured languages can read? tesseract reading a
 * Chinese scan with `eng` returns confident-looking garbage; a typesetter would see at a glance
 * that the page is not in Latin type. folio looks only where the reading went badly (the words'
 * mean confidence under LOW_CONFIDENCE: a clean English page costs nothing more), and asks
 * tesseract's orientation and script detection (`--psm 0`, the `osd` traineddata that Debian's
 * tesseract-ocr installs) which script the page is set in. Handwriting also reads badly, and OSD
 * answers it with a script guess of very low confidence (0.2 on three handwritten corpus pages,
 * 1.1 for the Chinese scan, 13.6 for printed English): below MIN_SCRIPT_CONFIDENCE nothing is said.
 */
import { runPipeline } from './child.ts';
import type { Command } from './child.ts';

/** A page whose words' mean confidence (0–100) is below this read badly: its script is checked. */
export const LOW_CONFIDENCE = 60;
/** Fewer words than this say nothing either way. */
const MIN_WORDS = 5;
/** tesseract's OSD script confidence below which its guess is not trusted. */
export const MIN_SCRIPT_CONFIDENCE = 1;

export interface DetectedScript {
  /** tesseract's script name (`Han`, `Cyrillic`, `Arabic`, …). */
  script: string;
  confidence: number;
}

/**
 * Scripts tesseract's OSD names, with the tesseract languages that read them and a name a person
 * knows. Latin is absent: folio's languages are Latin by default, and a Latin page that read badly
 * is handwriting or a poor scan, not a wrong language.
 */
const SCRIPTS: Record<string, { languages: readonly string[]; suggest: string; label: string }> = {
  Han: { languages: ['chi_sim', 'chi_tra', 'chi_sim_vert', 'chi_tra_vert', 'jpn', 'jpn_vert'], suggest: 'chi_sim', label: 'Chinese (Han)' },
  Japanese: { languages: ['jpn', 'jpn_vert'], suggest: 'jpn', label: 'Japanese' },
  Katakana: { languages: ['jpn', 'jpn_vert'], suggest: 'jpn', label: 'Japanese' },
  Hiragana: { languages: ['jpn', 'jpn_vert'], suggest: 'jpn', label: 'Japanese' },
  Hangul: { languages: ['kor', 'kor_vert'], suggest: 'kor', label: 'Korean (Hangul)' },
  Korean: { languages: ['kor', 'kor_vert'], suggest: 'kor', label: 'Korean (Hangul)' },
  Cyrillic: { languages: ['rus', 'ukr', 'bel', 'bul', 'mkd', 'srp', 'kaz', 'kir', 'tgk', 'mon', 'uzb_cyrl', 'aze_cyrl'], suggest: 'rus', label: 'Cyrillic' },
  Arabic: { languages: ['ara', 'fas', 'urd', 'pus', 'snd', 'uig', 'kur'], suggest: 'ara', label: 'Arabic' },
  Greek: { languages: ['ell', 'grc'], suggest: 'ell', label: 'Greek' },
  Hebrew: { languages: ['heb', 'yid'], suggest: 'heb', label: 'Hebrew' },
  Devanagari: { languages: ['hin', 'mar', 'nep', 'san'], suggest: 'hin', label: 'Devanagari' },
  Bengali: { languages: ['ben', 'asm'], suggest: 'ben', label: 'Bengali' },
  Thai: { languages: ['tha'], suggest: 'tha', label: 'Thai' },
  Tamil: { languages: ['tam'], suggest: 'tam', label: 'Tamil' },
  Telugu: { languages: ['tel'], suggest: 'tel', label: 'Telugu' },
  Kannada: { languages: ['kan'], suggest: 'kan', label: 'Kannada' },
  Malayalam: { languages: ['mal'], suggest: 'mal', label: 'Malayalam' },
  Gujarati: { languages: ['guj'], suggest: 'guj', label: 'Gujarati' },
  Gurmukhi: { languages: ['pan'], suggest: 'pan', label: 'Gurmukhi' },
  Armenian: { languages: ['hye'], suggest: 'hye', label: 'Armenian' },
  Georgian: { languages: ['kat', 'kat_old'], suggest: 'kat', label: 'Georgian' },
  Ethiopic: { languages: ['amh', 'tir'], suggest: 'amh', label: 'Ethiopic' },
  Khmer: { languages: ['khm'], suggest: 'khm', label: 'Khmer' },
  Lao: { languages: ['lao'], suggest: 'lao', label: 'Lao' },
  Myanmar: { languages: ['mya'], suggest: 'mya', label: 'Myanmar' },
  Sinhala: { languages: ['sin'], suggest: 'sin', label: 'Sinhala' },
  Tibetan: { languages: ['bod'], suggest: 'bod', label: 'Tibetan' },
};

/** Words (TSV level 5 with text) and their mean confidence, from tesseract's TSV. */
export function tsvConfidence(tsv: string): { words: number; mean: number } {
  let words = 0;
  let sum = 0;
  for (const line of tsv.split('\n')) {
    const cells = line.split('\t');
    if (cells[0] !== '5' || cells.length < 12 || cells.slice(11).join('\t').trim() === '') continue;
    const conf = Number(cells[10]);
    if (!Number.isFinite(conf) || conf < 0) continue;
    words++;
    sum += conf;
  }
  return { words, mean: words > 0 ? sum / words : 0 };
}

/** True when a page's reading went badly enough that its script is worth checking. */
export function readBadly(tsv: string): boolean {
  const { words, mean } = tsvConfidence(tsv);
  return words >= MIN_WORDS && mean < LOW_CONFIDENCE;
}

export function osdCommand(dpi: number): Command {
  return {
    program: 'tesseract',
    file: 'env',
    args: ['OMP_THREAD_LIMIT=1', 'tesseract', 'stdin', 'stdout', '--dpi', String(dpi), '--psm', '0', '-l', 'osd'],
  };
}

/** `Script: Han` and `Script confidence: 1.10` from tesseract's OSD report. */
export function parseOsd(report: string): DetectedScript | undefined {
  const script = /^Script:\s*(\S+)/m.exec(report)?.[1];
  const confidence = Number(/^Script confidence:\s*([\d.]+)/m.exec(report)?.[1]);
  return script && Number.isFinite(confidence) ? { script, confidence } : undefined;
}

/** The page's script by OSD; undefined when OSD is not installed, fails, or is unsure. */
export async function detectScript(render: Command, dpi: number, signal: AbortSignal): Promise<DetectedScript | undefined> {
  try {
    const found = parseOsd(await runPipeline(render, osdCommand(dpi), signal));
    return found && found.confidence >= MIN_SCRIPT_CONFIDENCE ? found : undefined;
  } catch {
    signal.throwIfAborted();
    return undefined;
  }
}

/**
 * The warning for pages set in a script none of the languages OCR ran with reads; undefined when
 * every detected script is covered (or is Latin). `languages` is tesseract's `-l` (`eng+deu`).
 */
export function scriptWarning(pages: ReadonlyMap<number, DetectedScript>, languages: string): string | undefined {
  const used = new Set(languages.split('+'));
  const byScript = new Map<string, { suggest: string; pages: number[] }>();
  for (const [page, found] of pages) {
    const known = SCRIPTS[found.script];
    if (!known || known.languages.some((l) => used.has(l))) continue;
    const entry = byScript.get(known.label) ?? { suggest: known.suggest, pages: [] };
    entry.pages.push(page);
    byScript.set(known.label, entry);
  }
  if (byScript.size === 0) return undefined;
  const parts = [...byScript].map(([label, { suggest, pages: numbers }]) => {
    const sorted = [...numbers].sort((a, b) => a - b);
    return `page${sorted.length > 1 ? 's' : ''} ${sorted.join(', ')} look${sorted.length > 1 ? '' : 's'} set in ${label} script, which ${languages} does not read: install tesseract-ocr-${suggest.replace(/_/g, '-')} and add ${suggest} to FOLIO_OCR_LANGUAGES`;
  });
  return `OCR text is likely wrong: ${parts.join('; ')}.`;
}
