/**
 * The .docx reader: mammoth converts the main story; folio adds what mammoth leaves out, from
 * the package parts it reads itself (package.ts): running headers and footers as page
 * furniture, equations (OMML → TeX), imported HTML (altChunk), skipped grid columns in tables,
 * heading styles mammoth does not know and heading numbers, readable notes, document properties.
 *
 * Order: the story parts are patched as text first (mammoth then reads the patched parts), the
 * HTML mammoth returns is parsed into the intermediate document, and the sentinels the patches
 * left are replaced there. Encrypted files never get here (detect.ts refuses them).
 */
import { isServiceError, ServiceError } from '../../../errors.ts';
import { documentFromHtml, type ReadInput, type ReadResult } from '../../document.ts';
import { AltChunks } from './altchunk.ts';
import { readContentTypes } from './content-types.ts';
import { Equations } from './equations.ts';
import { readFurniture, type Furniture } from './furniture.ts';
import { convertMainStory, type MammothOutput } from './mammoth.ts';
import { readCoreProperties } from './metadata.ts';
import { numberHeadings, readNumbering } from './numbering.ts';
import { tidyNotes } from './notes.ts';
import { DocxPackage } from './package.ts';
import { packageLimits } from '../zip-guard.ts';
import { patchStory } from './story-patches.ts';
import { readStyleFacts } from './styles.ts';
import { fillSkippedGridColumns } from './tables.ts';
import { tidyMammothHtml } from './tidy.ts';
import { summarizeWarnings } from './warnings.ts';
import { readRelationships, relsPartName, resolvePartName, type Relationship } from './xml.ts';
import { COMMENTS_LEFT_OUT } from '../comments.ts';

/** Alt text of a picture that has none, so its placeholder still shows that a picture was there. */
export const IMAGE_FALLBACK_ALT = 'Image';

/** A review comment's anchor in the main story (its text lives in comments.xml). */
const COMMENT_REFERENCE = /<w:commentReference\b/;
const RELATIONSHIP = /\/(officeDocument|styles|numbering|core-properties|footnotes|endnotes)$/;

function relationshipOfType(rels: Map<string, Relationship>, type: string): Relationship | undefined {
  for (const rel of rels.values()) {
    const match = RELATIONSHIP.exec(rel.type);
    if (match?.[1] === type && !rel.external) return rel;
  }
  return undefined;
}

function damaged(reason: string): ServiceError {
  return new ServiceError('CORRUPT_FILE', `The Word document could not be read: ${reason} Re-save it from Word (or export it again) and upload it again.`);
}

async function convert(pkg: DocxPackage, styleMap: string[], embedImages: boolean, signal: AbortSignal): Promise<MammothOutput> {
  try {
    return await convertMainStory(pkg, { styleMap, embedImages, imageFallbackAlt: IMAGE_FALLBACK_ALT });
  } catch (err) {
    if (isServiceError(err) || signal.aborted) throw err;
    throw damaged('its main text is damaged or is not valid WordprocessingML.');
  }
}

function patchPart(pkg: DocxPackage, part: string, original: string, patched: string): void {
  if (patched !== original) pkg.overrideText(part, patched);
}

function insertFurniture(document: Document, furniture: Furniture): void {
  const body = document.body;
  const first = body.firstChild;
  for (const html of furniture.headers) {
    const header = document.createElement('header');
    header.setAttribute('data-furniture', 'header');
    header.innerHTML = html;
    body.insertBefore(header, first);
  }
  for (const html of furniture.footers) {
    const footer = document.createElement('footer');
    footer.setAttribute('data-furniture', 'footer');
    footer.innerHTML = html;
    body.appendChild(footer);
  }
}

export async function readDocx(input: ReadInput): Promise<ReadResult> {
  const { signal } = input;
  signal.throwIfAborted();
  const pkg = new DocxPackage(input.bytes, packageLimits(input.limits));
  const embedImages = input.options.removeBase64Images === false;

  const packageRels = readRelationships(pkg.textOf('_rels/.rels'));
  const mainRel = relationshipOfType(packageRels, 'officeDocument');
  const mainCandidate = mainRel ? resolvePartName('', mainRel.target) : 'word/document.xml';
  const mainPart = pkg.resolve(mainCandidate) ?? pkg.resolve('word/document.xml');
  const documentXml = mainPart ? pkg.textOf(mainPart) : undefined;
  if (!mainPart || documentXml === undefined) throw damaged('the package has no main document part (word/document.xml).');
  const documentRels = readRelationships(pkg.textOf(relsPartName(mainPart)));

  const stylesRel = relationshipOfType(documentRels, 'styles');
  const stylesPart = stylesRel ? resolvePartName(mainPart, stylesRel.target) : 'word/styles.xml';
  const styles = readStyleFacts(pkg.textOf(stylesPart), documentXml);
  if (styles.slimStylesXml !== undefined) pkg.overrideText(stylesPart, styles.slimStylesXml);
  const numberingRel = relationshipOfType(documentRels, 'numbering');
  const numbering = readNumbering(pkg.textOf(numberingRel ? resolvePartName(mainPart, numberingRel.target) : 'word/numbering.xml'));

  const contentTypes = readContentTypes(pkg.textOf('[Content_Types].xml'));
  const imageOptions = { embedImages, imageFallbackAlt: IMAGE_FALLBACK_ALT };
  const altChunks = new AltChunks();
  const equations = new Equations();
  const withChunks = altChunks.patch(documentXml, { pkg, mainPart, rels: documentRels, contentTypes, ...imageOptions, ...(input.limits ? { limits: input.limits } : {}) });
  const numbered = numberHeadings(fillSkippedGridColumns(withChunks), numbering, styles.headingStyles);
  patchPart(pkg, mainPart, documentXml, equations.patch(patchStory(numbered)));
  for (const notes of ['footnotes', 'endnotes']) {
    const rel = relationshipOfType(documentRels, notes);
    const part = rel ? resolvePartName(mainPart, rel.target) : `word/${notes}.xml`;
    const xml = pkg.textOf(part);
    if (xml !== undefined) patchPart(pkg, part, xml, equations.patch(patchStory(xml)));
  }
  signal.throwIfAborted();


  const converted = await convert(pkg, styles.styleMap, embedImages, signal);
  signal.throwIfAborted();

  const coreRel = relationshipOfType(packageRels, 'core-properties');
  const metadata = readCoreProperties(pkg.textOf(coreRel ? resolvePartName('', coreRel.target) : 'docProps/core.xml'), styles.language);

  const document = documentFromHtml(converted.html, metadata.language);
  equations.restore(document.body);
  altChunks.restore(document.body);
  tidyNotes(document.body);

  const warnings = summarizeWarnings(converted.messages, converted.images);
  // Review comments are left out in every Word reader (docs/parsing.md), and said so alike.
  if (COMMENT_REFERENCE.test(documentXml)) warnings.push(COMMENTS_LEFT_OUT);
  try {
    insertFurniture(document, readFurniture(pkg, mainPart, documentXml, documentRels, { ...imageOptions, contentTypes }));
  } catch (err) {
    if (isServiceError(err)) throw err;
    warnings.push('The running headers and footers could not be read and are missing from the output.');
  }
  tidyMammothHtml(document.body);
  signal.throwIfAborted();

  return {
    document,
    metadata,
    warnings,
    rawHtml: `<!DOCTYPE html>\n${document.documentElement.outerHTML}`,
  };
}
