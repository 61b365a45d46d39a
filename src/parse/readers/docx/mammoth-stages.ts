/**
 * mammoth's `convertToHtml`, run stage by stage from its own modules (mammoth 1.x `lib/index.js`
 * `convert` and `lib/docx/docx-reader.js` `read`), with two costs taken out (issue 4, DOCX speed):
 * - every XML part is read by `readMammothXml` (one pass to mammoth's tree) instead of
 *   xmldom + mammoth's DOM walk;
 * - each style mapping is parsed once per process (`readStyle` is a pure parse of a string) instead
 *   of the ~50 default mappings on every document.
 * Everything else is mammoth's own code, in mammoth's order: the same readers, the same body
 * reader, the same HTML converter. test/parse/docx-mammoth-stages.test.ts checks that the HTML
 * and messages equal `mammoth.convertToHtml`'s on the corpus.
 */
import { createRequire } from 'node:module';
import { readMammothXml, type MammothXmlElement } from './mammoth-xml.ts';

export interface MammothMessage {
  type: 'warning' | 'error';
  message: string;
  error?: unknown;
}

/** mammoth's `results.Result`: a value with the messages gathered on the way. */
interface Result<T> {
  value: T;
  messages: MammothMessage[];
  map<U>(fn: (value: T) => U): Result<U>;
  flatMap<U>(fn: (value: T) => Result<U>): Result<U>;
  flatMapThen<U>(fn: (value: T) => Promise<Result<U>>): Promise<Result<U>>;
}

interface ResultModule {
  Result: { new <T>(value: T, messages?: MammothMessage[]): Result<T>; combine<T>(results: Result<T | T[]>[]): Result<T[]> };
}

/** Values mammoth builds and reads back; folio never looks inside them. */
type Opaque<Name extends string> = { readonly __mammoth: Name };
type Relationships = Opaque<'Relationships'> & { findTargetsByType(type: string): string[] };
type ContentTypes = Opaque<'ContentTypes'>;
type Styles = Opaque<'Styles'>;
type Numbering = Opaque<'Numbering'>;
type Files = Opaque<'Files'>;
type Note = Opaque<'Note'>;
type Comment = Opaque<'Comment'>;
type DocumentElement = Opaque<'Document'>;
type StyleMapping = Opaque<'StyleMapping'>;
type BodyReader = Opaque<'BodyReader'>;
type NotesReader = (element: MammothXmlElement) => Result<Note[]>;

/** The `{file}` input mammoth reads a package through. */
export interface MammothFile {
  exists(name: string): boolean;
  read(name: string, encoding?: string): Promise<string | Uint8Array>;
  write(name: string, contents: string): void;
  toArrayBuffer(): Promise<ArrayBuffer>;
}

export interface StageOptions {
  styleMap: string[];
  includeDefaultStyleMap: boolean;
  includeEmbeddedStyleMap: boolean;
  externalFileAccess: boolean;
  ignoreEmptyParagraphs: boolean;
  convertImage: unknown;
}

interface ReadOptions extends StageOptions {
  embeddedStyleMap?: string | null;
  transformDocument(document: DocumentElement): DocumentElement;
  readStyleMap(): string[];
}

const load = createRequire(import.meta.url);
const mammothLib = (name: string): unknown => load(`mammoth/lib/${name}.js`);

const { Result } = mammothLib('results') as ResultModule;
const { Notes } = mammothLib('documents') as { Notes: new (notes: Note[]) => Opaque<'Notes'> };
const { readOptions } = mammothLib('options-reader') as { readOptions(options: StageOptions): ReadOptions };
const { readStyle } = mammothLib('style-reader') as { readStyle(text: string): Result<StyleMapping | undefined> };
const { DocumentConverter } = mammothLib('document-to-html') as {
  DocumentConverter: new (options: Omit<ReadOptions, 'styleMap'> & { styleMap: StyleMapping[] }) => { convertToHtml(document: DocumentElement): Promise<Result<string>> };
};
const zipfile = mammothLib('zipfile') as { splitPath(path: string): { dirname: string; basename: string }; joinPath(...parts: string[]): string };
const relationshipsReader = mammothLib('docx/relationships-reader') as { readRelationships(element: MammothXmlElement): Relationships; defaultValue: Relationships };
const contentTypesReader = mammothLib('docx/content-types-reader') as { readContentTypesFromXml(element: MammothXmlElement): ContentTypes; defaultContentTypes: ContentTypes };
const stylesReader = mammothLib('docx/styles-reader') as { readStylesXml(element: MammothXmlElement): Styles; defaultStyles: Styles };
const numberingXml = mammothLib('docx/numbering-xml') as {
  readNumberingXml(element: MammothXmlElement, options: { styles: Styles }): Numbering;
  defaultNumbering: Numbering;
};
const notesReader = mammothLib('docx/notes-reader') as { createFootnotesReader(body: BodyReader): NotesReader; createEndnotesReader(body: BodyReader): NotesReader };
const { createCommentsReader } = mammothLib('docx/comments-reader') as { createCommentsReader(body: BodyReader): (element: MammothXmlElement) => Result<Comment[]> };
const { createBodyReader } = mammothLib('docx/body-reader') as {
  createBodyReader(options: { relationships: Relationships; contentTypes: ContentTypes; docxFile: MammothFile; numbering: Numbering; styles: Styles; files: Files }): BodyReader;
};
const { DocumentXmlReader } = mammothLib('docx/document-xml-reader') as {
  DocumentXmlReader: new (options: { bodyReader: BodyReader; notes: Opaque<'Notes'>; comments: Comment[] }) => {
    convertXmlToDocument(element: MammothXmlElement): Result<DocumentElement>;
  };
};
const { Files: FilesClass } = mammothLib('docx/files') as { Files: new (options: { externalFileAccess: boolean; relativeToFile: undefined }) => Files };

/** mammoth's `office-xml-reader` namespace map: the prefixes its readers match on. */
export const NAMESPACES: Record<string, string> = {
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main': 'w',
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships': 'r',
  'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing': 'wp',
  'http://schemas.openxmlformats.org/drawingml/2006/main': 'a',
  'http://schemas.openxmlformats.org/drawingml/2006/picture': 'pic',
  'http://purl.oclc.org/ooxml/wordprocessingml/main': 'w',
  'http://purl.oclc.org/ooxml/officeDocument/relationships': 'r',
  'http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing': 'wp',
  'http://purl.oclc.org/ooxml/drawingml/main': 'a',
  'http://purl.oclc.org/ooxml/drawingml/picture': 'pic',
  'http://schemas.openxmlformats.org/package/2006/content-types': 'content-types',
  'http://schemas.openxmlformats.org/package/2006/relationships': 'relationships',
  'http://schemas.openxmlformats.org/markup-compatibility/2006': 'mc',
  'urn:schemas-microsoft-com:vml': 'v',
  'urn:schemas-microsoft-com:office:word': 'office-word',
  'http://schemas.microsoft.com/office/word/2010/wordml': 'wordml',
};

const RELATIONSHIP_TYPES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const STYLE_CACHE_LIMIT = 2000;
const parsedStyles = new Map<string, Result<StyleMapping | undefined>>();

function parsedStyle(text: string): Result<StyleMapping | undefined> {
  let parsed = parsedStyles.get(text);
  if (!parsed) {
    if (parsedStyles.size >= STYLE_CACHE_LIMIT) parsedStyles.clear();
    parsed = readStyle(text);
    parsedStyles.set(text, parsed);
  }
  return parsed;
}

/** Text of a part, for the stages: the text mammoth's `docxFile.read(path, 'utf-8')` would give. */
export type PartText = (name: string) => string | undefined;

function readXml(partText: PartText, name: string): MammothXmlElement | null {
  const text = partText(name);
  return text === undefined ? null : readMammothXml(text.replace(/^\uFEFF/, ''), NAMESPACES);
}

/** The relationships of a part (`word/_rels/document.xml.rels`), or of the package when part is undefined. */
function relationshipsOf(partText: PartText, part: string | undefined): Relationships {
  const split = part === undefined ? undefined : zipfile.splitPath(part);
  const xml = readXml(partText, split ? zipfile.joinPath(split.dirname, '_rels', `${split.basename}.rels`) : '_rels/.rels');
  return xml ? relationshipsReader.readRelationships(xml) : relationshipsReader.defaultValue;
}

/** docx-reader's findPartPath: the first related part that exists, else the conventional name. */
function partPath(file: MammothFile, relationships: Relationships, type: string, basePath: string, fallback: string): string {
  for (const target of relationships.findTargetsByType(type)) {
    const joined = zipfile.joinPath(basePath, target).replace(/^\//, '');
    if (file.exists(joined)) return joined;
  }
  return fallback;
}

/** docx-reader's `read`, synchronous: every part comes from the package already in memory. */
function readDocument(file: MammothFile, partText: PartText, options: ReadOptions): Result<DocumentElement> {
  const files = new FilesClass({ externalFileAccess: options.externalFileAccess, relativeToFile: undefined });
  const contentTypesXml = readXml(partText, '[Content_Types].xml');
  const contentTypes = contentTypesXml ? contentTypesReader.readContentTypesFromXml(contentTypesXml) : contentTypesReader.defaultContentTypes;
  const mainDocument = partPath(file, relationshipsOf(partText, undefined), `${RELATIONSHIP_TYPES}officeDocument`, '', 'word/document.xml');
  if (!file.exists(mainDocument)) throw new Error('Could not find main document part. Are you sure this is a valid .docx file?');
  const documentRels = relationshipsOf(partText, mainDocument);
  const related = (name: string): string =>
    partPath(file, documentRels, `${RELATIONSHIP_TYPES}${name}`, zipfile.splitPath(mainDocument).dirname, `word/${name}.xml`);

  const stylesXml = readXml(partText, related('styles'));
  const styles = stylesXml ? stylesReader.readStylesXml(stylesXml) : stylesReader.defaultStyles;
  const numberingXmlElement = readXml(partText, related('numbering'));
  const numbering = numberingXmlElement ? numberingXml.readNumberingXml(numberingXmlElement, { styles }) : numberingXml.defaultNumbering;
  const withBody = <T>(part: string, read: (body: BodyReader, xml: MammothXmlElement | null) => Result<T>): Result<T> => {
    const bodyReader = createBodyReader({ relationships: relationshipsOf(partText, part), contentTypes, docxFile: file, numbering, styles, files });
    return read(bodyReader, readXml(partText, part));
  };
  const footnotes = withBody(related('footnotes'), (body, xml) => (xml ? notesReader.createFootnotesReader(body)(xml) : new Result<Note[]>([])));
  const endnotes = withBody(related('endnotes'), (body, xml) => (xml ? notesReader.createEndnotesReader(body)(xml) : new Result<Note[]>([])));
  const comments = withBody(related('comments'), (body, xml) => (xml ? createCommentsReader(body)(xml) : new Result<Comment[]>([])));
  const notes = footnotes.flatMap((foot) => endnotes.map((end) => new Notes(foot.concat(end))));
  return withBody(mainDocument, (bodyReader, xml) =>
    notes.flatMap((allNotes) =>
      comments.flatMap((allComments) => {
        const reader = new DocumentXmlReader({ bodyReader, notes: allNotes, comments: allComments });
        // mammoth passes a missing part on as null, and its reader then fails: the same here.
        return reader.convertXmlToDocument(xml as MammothXmlElement);
      }),
    ),
  );
}

/** `mammoth.convertToHtml({file}, options)`, stage by stage. */
export async function convertToHtmlInStages(file: MammothFile, partText: PartText, stageOptions: StageOptions): Promise<{ value: string; messages: MammothMessage[] }> {
  const options = readOptions(stageOptions);
  options.embeddedStyleMap = partText('mammoth/style-map') ?? null;
  const documentResult = readDocument(file, partText, options).map(options.transformDocument);
  const styleMapResult = Result.combine<StyleMapping | undefined>(options.readStyleMap().map(parsedStyle)).map((mappings) =>
    mappings.filter((mapping): mapping is StyleMapping => !!mapping),
  );
  const converter = new DocumentConverter({ ...options, styleMap: styleMapResult.value });
  const result = await documentResult.flatMapThen((document) => styleMapResult.flatMapThen(() => converter.convertToHtml(document)));
  return { value: result.value, messages: result.messages };
}
