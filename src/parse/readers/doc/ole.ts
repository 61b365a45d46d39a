/**
 * The OLE .doc reader: container and FIB checks (container.ts), raw text through word-extractor
 * (ole-text.ts) for Word 97–2003 or folio's own Word 6.0/95 reader (word6-*.ts), paragraph
 * properties and styles (properties.ts, word6-properties.ts), each story to HTML (story.ts).
 * Main text first, running headers and footers as page furniture, text boxes after the main
 * text, footnotes then endnotes as one numbered list after an `<hr>` (the body's references
 * read `[n]`), comments left out (as the DOCX reader does).
 */
import { isServiceError, ServiceError } from '../../../errors.ts';
import { documentFromHtml, type ReadInput, type ReadResult } from '../../document.ts';
import { fibState, openContainer, pieceTableIsSane } from './container.ts';
import { formatChanges } from './character.ts';
import { extractRaw, type RawDoc } from './ole-text.ts';
import { DocProperties, type StoryProperties } from './properties.ts';
import { storyHtml } from './story.ts';
import { readSummaryInformation } from './summary-info.ts';
import { isWord6Fib, NFIB_WORD2, readWord6Fib } from './word6-fib.ts';
import { Word6Properties } from './word6-properties.ts';
import { extractWord6Raw, Word6TextError } from './word6-text.ts';
import { COMMENTS_LEFT_OUT } from '../comments.ts';

const WORD97 = 'Word 97–2003';
const WORD6 = 'Word 6.0/95';

export function damaged(reason: string, version = WORD97): ServiceError {
  return new ServiceError('CORRUPT_FILE', `The ${version} document could not be read: ${reason} Re-save it from Word (or export it again) and upload it again.`);
}

function encrypted(version = WORD97): ServiceError {
  return new ServiceError('ENCRYPTED_FILE', `The ${version} document is password-protected. Remove the password in Word and upload it again.`);
}

interface Note {
  html: string;
}

/** Splits a note story into its notes by the PLC of note texts; labels the body's references. */
function readNotes(raw: RawDoc, storyStart: number, storyLength: number, texts: number[], refs: number[], firstNumber: number, labels: Map<number, string>, properties: StoryProperties | undefined): Note[] {
  const notes: Note[] = [];
  if (storyLength <= 0) return notes;
  const story = raw.text.slice(storyStart, storyStart + storyLength);
  const bounds = texts.length >= 2 ? texts : [0, storyLength];
  let previousEnd = 0;
  for (let i = 0; i + 1 < bounds.length; i++) {
    // Notes never overlap: a damaged PLC going backwards cannot make the story be read twice.
    const start = Math.max(previousEnd, Math.min(bounds[i] as number, storyLength));
    const end = Math.max(start, Math.min(bounds[i + 1] as number, storyLength));
    previousEnd = end;
    const cpStart = storyStart + start;
    const html = storyHtml(story.slice(start, end), {
      cpStart,
      formatChanges: formatChanges(raw.pieces, raw.formatRuns, cpStart, storyStart + end),
      ...(properties ? { properties } : {}),
    });
    if (html === '') continue;
    const number = firstNumber + notes.length;
    const ref = refs[i];
    if (ref !== undefined) labels.set(ref, `[${number}]`);
    notes.push({ html });
  }
  return notes;
}

function furniture(tag: 'header' | 'footer', stories: string[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const story of stories) {
    const html = storyHtml(story, { cpStart: 0 });
    if (html === '' || seen.has(html)) continue;
    seen.add(html);
    parts.push(`<${tag} data-furniture="${tag}">${html}</${tag}>`);
  }
  return parts.join('\n');
}

interface Extracted {
  raw: RawDoc;
  properties: StoryProperties | undefined;
  warnings: string[];
}

/** Word 97–2003: text through word-extractor, properties from the table stream. */
async function extractWord97(container: ReturnType<typeof openContainer>, wordDocument: Buffer, signal: AbortSignal): Promise<Extracted> {
  const state = fibState(wordDocument);
  if (state === 'encrypted') throw encrypted();
  if (state === 'not-word') throw notWord(wordDocument);
  if (!container.table || !pieceTableIsSane(wordDocument, container.table)) throw damaged('its piece table (where the text is) is damaged.');
  signal.throwIfAborted();

  let raw: RawDoc;
  try {
    raw = await extractRaw(wordDocument, container.table);
  } catch (err) {
    if (isServiceError(err) || signal.aborted) throw err;
    throw damaged('its text or piece table is damaged.');
  }
  signal.throwIfAborted();

  const warnings: string[] = [];
  let properties: StoryProperties | undefined;
  try {
    properties = new DocProperties(raw.wordDocument, raw.table, raw.pieces);
  } catch {
    warnings.push('The paragraph properties of this .doc are damaged: tables and headings may show as plain paragraphs.');
  }
  return { raw, properties, warnings };
}

/** Word 6.0 and Word 95: the older FIB, text and properties all in the WordDocument stream. */
function extractWord6(wordDocument: Buffer): Extracted {
  const fib = readWord6Fib(wordDocument);
  if (!fib) throw damaged('its file information block is truncated.', WORD6);
  if (fib.encrypted) throw encrypted(WORD6);
  let extracted;
  try {
    extracted = extractWord6Raw(wordDocument, fib);
  } catch (err) {
    if (err instanceof Word6TextError) throw damaged(`${err.message}.`, WORD6);
    throw damaged('its text or piece table is damaged.', WORD6);
  }
  const { raw } = extracted;
  const warnings: string[] = [];
  let properties: StoryProperties | undefined;
  // Double-byte text keeps CPs aligned (word6-codepage.ts), but its paragraph runs are rarely worth the risk.
  try {
    properties = new Word6Properties(wordDocument, fib, raw.pieces);
  } catch {
    warnings.push('The paragraph properties of this .doc are damaged: tables and headings may show as plain paragraphs.');
  }
  return { raw, properties, warnings };
}

/** The refusal for a WordDocument stream that is not Word 6 or later: names Word 2.0 and older when it can. */
function notWord(wordDocument: Buffer): ServiceError {
  const nFib = wordDocument.length >= 4 ? wordDocument.readUInt16LE(2) : 0;
  if (nFib > 0 && nFib <= NFIB_WORD2) {
    return new ServiceError('UNSUPPORTED_FILE_TYPE', 'The document is in the Word 2.0 (or older) format, which folio does not read. Open it in Word or LibreOffice, save it as .docx, and upload it again.');
  }
  return damaged('its WordDocument stream does not start with a Word file information block.');
}

export async function readOleDoc(input: ReadInput): Promise<ReadResult> {
  const { signal } = input;
  let container;
  try {
    container = openContainer(input.bytes);
  } catch {
    throw damaged('the OLE container is damaged or truncated.');
  }
  const wordDocument = container.wordDocument;
  if (!wordDocument) throw damaged('it has no WordDocument stream.');
  const { raw, properties, warnings } = isWord6Fib(wordDocument) ? extractWord6(wordDocument) : await extractWord97(container, wordDocument, signal);
  signal.throwIfAborted();

  const labels = new Map<number, string>();
  const notesAt = raw.ccpText;
  const endnotesAt = raw.ccpText + raw.ccpFtn + raw.ccpHdd + raw.ccpAtn;
  const footnotes = readNotes(raw, notesAt, raw.ccpFtn, properties?.notes.footnoteTexts ?? [], properties?.notes.footnoteRefs ?? [], 1, labels, properties);
  const endnotes = readNotes(raw, endnotesAt, raw.ccpEdn, properties?.notes.endnoteTexts ?? [], properties?.notes.endnoteRefs ?? [], footnotes.length + 1, labels, properties);
  signal.throwIfAborted();

  let pictures = 0;
  const body = storyHtml(raw.text.slice(0, raw.ccpText), {
    cpStart: 0,
    onPicture: () => pictures++,
    noteLabels: labels,
    formatChanges: formatChanges(raw.pieces, raw.formatRuns, 0, raw.ccpText),
    ...(properties ? { properties } : {}),
  });
  const textboxesAt = endnotesAt + raw.ccpEdn;
  const textboxes = raw.ccpTxbx > 0 ? storyHtml(raw.text.slice(textboxesAt, textboxesAt + raw.ccpTxbx), { cpStart: textboxesAt }) : '';
  const notes = [...footnotes, ...endnotes];
  const parts = [
    furniture('header', raw.headers),
    body,
    textboxes,
    notes.length > 0 ? `<hr><ol>${notes.map((note) => `<li>${note.html}</li>`).join('')}</ol>` : '',
    furniture('footer', raw.footers),
  ];
  const document = documentFromHtml(parts.filter(Boolean).join('\n'));
  if (raw.characterPropertiesDamaged) warnings.push('The character properties of this .doc are damaged: bold and italic are missing and deleted (tracked) text may show.');
  if (pictures > 0) warnings.push(`${pictures} picture${pictures === 1 ? '' : 's'} in the document ${pictures === 1 ? 'is shown as a placeholder' : 'are shown as placeholders'}: folio does not extract images from .doc files.`);
  if (raw.ccpAtn > 0) warnings.push(COMMENTS_LEFT_OUT);
  return {
    document,
    metadata: readSummaryInformation(container.summaryInformation),
    warnings,
    rawHtml: `<!DOCTYPE html>\n${document.documentElement.outerHTML}`,
  };
}
