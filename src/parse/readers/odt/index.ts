/**
 * The .odt reader (OpenDocument text, ODF 1.2/1.3): the package is unzipped under limits
 * (package.ts), content.xml is converted by one walk (convert.ts) with the styles of styles.xml
 * and content.xml resolved (styles.ts), headers and footers of the master pages become page
 * furniture (furniture.ts), notes are appended after an `<hr>`, and meta.xml gives the metadata
 * (metadata.ts). Anything unreadable is CORRUPT_FILE; an encrypted package is ENCRYPTED_FILE.
 */
import { isServiceError, ServiceError } from '../../../errors.ts';
import { documentFromHtml, type ReadInput, type ReadResult } from '../../document.ts';
import { OdtConverter } from './convert.ts';
import { readFurniture, type Furniture } from './furniture.ts';
import { readMeta } from './metadata.ts';
import { odtCorrupt, OdtPackage } from './package.ts';
import { packageLimits } from '../zip-guard.ts';
import { readStylesPart } from './styles.ts';
import { firstChildNamed, parsePart } from './xml.ts';

function checkNotEncrypted(pkg: OdtPackage): void {
  const manifest = pkg.textOf('META-INF/manifest.xml');
  if (manifest?.includes('encryption-data')) {
    throw new ServiceError('ENCRYPTED_FILE', 'The OpenDocument file is password-protected. Save it without a password in LibreOffice and upload it again.');
  }
}

function furnitureHtml(furniture: Furniture): { before: string; after: string } {
  return {
    before: furniture.headers.map((html) => `<header data-furniture="header">${html}</header>`).join(''),
    after: furniture.footers.map((html) => `<footer data-furniture="footer">${html}</footer>`).join(''),
  };
}

function notesHtml(notes: readonly string[]): string {
  if (notes.length === 0) return '';
  return `<hr><ol>${notes.map((html) => `<li>${html}</li>`).join('')}</ol>`;
}

async function read(input: ReadInput): Promise<ReadResult> {
  const { signal } = input;
  signal.throwIfAborted();
  const pkg = new OdtPackage(input.bytes, packageLimits(input.limits));
  checkNotEncrypted(pkg);
  const contentXml = pkg.textOf('content.xml');
  if (contentXml === undefined) throw odtCorrupt('the package has no content.xml.');

  const stylesXml = pkg.textOf('styles.xml');
  const styles = readStylesPart(stylesXml === undefined ? undefined : parsePart(stylesXml, 'styles.xml'));
  const content = parsePart(contentXml, 'content.xml').documentElement;
  if (!content || content.tagName !== 'office:document-content') throw odtCorrupt('its content.xml is not OpenDocument content.');
  const contentStyles = styles.common.clone();
  contentStyles.add(firstChildNamed(content, 'office:automatic-styles'));
  const text = firstChildNamed(firstChildNamed(content, 'office:body'), 'office:text');
  if (!text) throw odtCorrupt('its content.xml holds no text body (is it a spreadsheet or presentation saved as .odt?).');
  signal.throwIfAborted();

  const warnings = new Set<string>();
  const notes: string[] = [];
  const embedImages = input.options.removeBase64Images === false;
  const bodyHtml = new OdtConverter({ pkg, styles: contentStyles, embedImages, notes, warnings, signal }).blocks(text);
  signal.throwIfAborted();

  let furniture: Furniture = { headers: [], footers: [] };
  try {
    const furnitureNotes: string[] = [];
    furniture = readFurniture(styles.root, new OdtConverter({ pkg, styles: styles.furniture, embedImages, notes: furnitureNotes, warnings }));
  } catch (err) {
    if (isServiceError(err)) throw err;
    warnings.add('The running headers and footers could not be read and are missing from the output.');
  }
  const metaXml = pkg.textOf('meta.xml');
  const metadata = readMeta(metaXml === undefined ? undefined : parsePart(metaXml, 'meta.xml'), styles.common.language);
  const { before, after } = furnitureHtml(furniture);
  const document = documentFromHtml(`${before}${bodyHtml}${notesHtml(notes)}${after}`, metadata.language);
  signal.throwIfAborted();
  return {
    document,
    metadata,
    warnings: [...warnings],
    rawHtml: `<!DOCTYPE html>\n${document.documentElement.outerHTML}`,
  };
}

export async function readOdt(input: ReadInput): Promise<ReadResult> {
  try {
    return await read(input);
  } catch (err) {
    if (isServiceError(err) || input.signal.aborted) throw err;
    throw odtCorrupt('its XML is damaged or not valid OpenDocument.');
  }
}
