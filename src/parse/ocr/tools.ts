/**
 * Are the OCR programs there, and which tesseract languages are installed? Asked once per process
 * when the answer is yes; a "no" is asked again on the next OCR (an operator may install the
 * packages without restarting folio).
 */
import { ServiceError } from '../../errors.ts';
import { ChildFailure, runOnce } from './child.ts';

/** FOLIO_OCR_LANGUAGES: tesseract language names joined by `+` (`eng`, `eng+deu`, `chi_sim`). */
export const OCR_LANGUAGES_PATTERN = /^[a-z_]+(\+[a-z_]+)*$/;
export const DEFAULT_OCR_LANGUAGES = 'eng';

export interface OcrLanguages {
  /** What tesseract is run with: the configured languages that are installed, joined by `+`. */
  use: string;
  /** Configured languages without their traineddata file on this machine. */
  missing: string[];
}

/** Debian names the traineddata packages with dashes: chi_sim → tesseract-ocr-chi-sim. */
export function debianPackages(languages: readonly string[]): string {
  return languages.map((l) => `tesseract-ocr-${l.replace(/_/g, '-')}`).join(', ');
}

let installed: Promise<ReadonlySet<string>> | undefined;

const SETUP_HINT = 'Install the Debian packages tesseract-ocr, tesseract-ocr-eng and poppler-utils (scripts/setup.sh does), or parse with mode \'fast\'.';

function notInstalled(program: string): ServiceError {
  return new ServiceError('NOT_CONFIGURED', `OCR is not available on this server: ${program} is not installed. ${SETUP_HINT}`);
}

async function probe(): Promise<ReadonlySet<string>> {
  let langs: Awaited<ReturnType<typeof runOnce>>;
  try {
    const poppler = await runOnce({ program: 'pdftoppm', file: 'pdftoppm', args: ['-v'] });
    if (poppler.code !== 0) throw notInstalled('pdftoppm (poppler-utils)');
    langs = await runOnce({ program: 'tesseract', file: 'tesseract', args: ['--list-langs'] });
  } catch (err) {
    if (err instanceof ChildFailure && err.missing) throw notInstalled(err.program === 'pdftoppm' ? 'pdftoppm (poppler-utils)' : 'tesseract (tesseract-ocr)');
    throw err;
  }
  if (langs.code !== 0) throw notInstalled('a working tesseract (tesseract-ocr)');
  // First line: `List of available languages in "/usr/share/tesseract-ocr/5/tessdata/" (2):`.
  const names = langs.stdout
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => /^[A-Za-z_]+$/.test(l));
  return new Set(names);
}

/** The installed tesseract languages; throws NOT_CONFIGURED when tesseract or pdftoppm is missing. */
export function installedLanguages(): Promise<ReadonlySet<string>> {
  if (!installed) {
    const probing = probe();
    installed = probing;
    probing.catch(() => {
      if (installed === probing) installed = undefined;
    });
  }
  return installed;
}

/**
 * Splits the configured languages into those tesseract can use and those not installed. None
 * installed → NOT_CONFIGURED (nothing could be read); some missing → the caller warns and OCRs with
 * the rest (docs/pdf-ocr.md "Languages").
 */
export async function resolveLanguages(configured: string): Promise<OcrLanguages> {
  if (!OCR_LANGUAGES_PATTERN.test(configured)) {
    throw new ServiceError('NOT_CONFIGURED', `OCR languages '${configured}' are not valid: name tesseract languages joined by '+', such as 'eng' or 'eng+deu'.`);
  }
  const have = await installedLanguages();
  const wanted = [...new Set(configured.split('+'))];
  const use = wanted.filter((l) => have.has(l));
  const missing = wanted.filter((l) => !have.has(l));
  if (use.length === 0) {
    throw new ServiceError(
      'NOT_CONFIGURED',
      `OCR is not available for the configured language${wanted.length > 1 ? 's' : ''} ${wanted.join(', ')}: no traineddata is installed for ${wanted.length > 1 ? 'them' : 'it'} (install ${debianPackages(wanted)}). Installed: ${[...have].filter((l) => l !== 'osd').join(', ') || 'none'}.`,
    );
  }
  return { use: use.join('+'), missing };
}
