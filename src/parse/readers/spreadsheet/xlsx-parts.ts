/**
 * The workbook-level parts of an .xlsx package, read without SheetJS for the streaming path:
 * the sheet list (names, visibility, part paths), date system, shared strings, the number format
 * of each cell style, and the document properties. ECMA-376 Part 1 §18.2 (workbook), §18.4
 * (shared strings), §18.8 (styles), Part 2 §9 (relationships), Part 2 §11 (core properties).
 */
import type * as XLSX from 'xlsx';
import type { GuardedZip } from '../zip-guard.ts';
import { attr, decodeText, firstElement, startTags, stringItemText } from './xlsx-xml.ts';

export interface XlsxSheetEntry {
  name: string;
  hidden: boolean;
  /** The worksheet part's path in the package; undefined for a chartsheet or a missing part. */
  path?: string;
}

export interface XlsxWorkbook {
  sheets: XlsxSheetEntry[];
  date1904: boolean;
  sharedStrings: string[];
  /** Number format (a format code, or a built-in id) per cell style index (`s`). */
  styleFormats: (string | number)[];
  props: XLSX.FullProperties;
}

const decoder = new TextDecoder('utf-8');

export function partText(zip: GuardedZip, path: string | undefined): string | undefined {
  if (!path) return undefined;
  const bytes = zip.inflate(path);
  return bytes ? decoder.decode(bytes) : undefined;
}

/** Resolves a relationship target against the folder of the part that holds the relationship. */
export function resolveTarget(fromPart: string, target: string): string {
  const base = target.startsWith('/') ? [] : fromPart.split('/').slice(0, -1);
  for (const seg of target.replace(/^\//, '').split('/')) {
    if (seg === '..') base.pop();
    else if (seg !== '.' && seg !== '') base.push(seg);
  }
  return base.join('/');
}

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

/** The relationships of a part (`xl/_rels/workbook.xml.rels` for `xl/workbook.xml`). */
export function relationships(zip: GuardedZip, part: string): Relationship[] {
  const folder = part.split('/').slice(0, -1).join('/');
  const file = part.split('/').pop() ?? '';
  const xml = partText(zip, `${folder ? `${folder}/` : ''}_rels/${file}.rels`);
  if (!xml) return [];
  const out: Relationship[] = [];
  for (const attrs of startTags(xml, 'Relationship')) {
    const id = attr(attrs, 'Id');
    const target = attr(attrs, 'Target');
    if (id === undefined || target === undefined) continue;
    out.push({ id, type: attr(attrs, 'Type') ?? '', target, external: attr(attrs, 'TargetMode') === 'External' });
  }
  return out;
}

function workbookPath(zip: GuardedZip): string {
  const doc = relationships(zip, '').find((r) => r.type.endsWith('/officeDocument'));
  const path = doc ? resolveTarget('', doc.target) : 'xl/workbook.xml';
  return zip.names.includes(path) ? path : 'xl/workbook.xml';
}

function styleFormats(xml: string | undefined): (string | number)[] {
  if (!xml) return [];
  const custom = new Map<number, string>();
  const numFmts = firstElement(xml, 'numFmts') ?? '';
  for (const attrs of startTags(numFmts, 'numFmt')) {
    const id = Number(attr(attrs, 'numFmtId'));
    const code = attr(attrs, 'formatCode');
    // An empty code (some writers emit one for id 0) leaves the built-in format in place.
    if (Number.isInteger(id) && code) custom.set(id, code);
  }
  const xfs = firstElement(xml, 'cellXfs') ?? '';
  const out: (string | number)[] = [];
  for (const attrs of startTags(xfs, 'xf')) {
    const id = Number(attr(attrs, 'numFmtId') ?? '0');
    const safe = Number.isInteger(id) ? id : 0;
    out.push(custom.get(safe) ?? safe);
  }
  return out;
}

function sharedStrings(xml: string | undefined): string[] {
  if (!xml) return [];
  const out: string[] = [];
  for (const m of xml.matchAll(/<(?:\w+:)?si\b[^>]*?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?si>)/g)) out.push(stringItemText(m[1] ?? ''));
  return out;
}

function element(xml: string | undefined, name: string): string | undefined {
  if (!xml) return undefined;
  const value = firstElement(xml, name);
  return value === undefined ? undefined : decodeText(value).trim() || undefined;
}

/** docProps/core.xml and app.xml in SheetJS's property names, for workbookMetadata(). */
function properties(zip: GuardedZip): XLSX.FullProperties {
  const core = partText(zip, zip.names.includes('docProps/core.xml') ? 'docProps/core.xml' : undefined);
  const app = partText(zip, zip.names.includes('docProps/app.xml') ? 'docProps/app.xml' : undefined);
  const props: XLSX.FullProperties = {};
  const set = (key: keyof XLSX.FullProperties, value: string | undefined): void => {
    if (value !== undefined) (props as Record<string, unknown>)[key] = value;
  };
  set('Title', element(core, 'title'));
  set('Subject', element(core, 'subject'));
  set('Comments', element(core, 'description'));
  set('Keywords', element(core, 'keywords'));
  set('Language', element(core, 'language'));
  set('Author', element(core, 'creator'));
  set('LastAuthor', element(core, 'lastModifiedBy'));
  set('Category', element(core, 'category'));
  set('Company', element(app, 'Company'));
  const created = element(core, 'created');
  const modified = element(core, 'modified');
  if (created) props.CreatedDate = new Date(created);
  if (modified) props.ModifiedDate = new Date(modified);
  return props;
}

export function readXlsxWorkbook(zip: GuardedZip): XlsxWorkbook {
  const path = workbookPath(zip);
  const xml = partText(zip, path) ?? '';
  const rels = relationships(zip, path);
  const byId = new Map(rels.map((r) => [r.id, r]));
  const sheetsXml = firstElement(xml, 'sheets') ?? '';
  const sheets: XlsxSheetEntry[] = [];
  for (const attrs of startTags(sheetsXml, 'sheet')) {
    const name = attr(attrs, 'name') ?? `Sheet${sheets.length + 1}`;
    const state = attr(attrs, 'state');
    const rel = byId.get(attr(attrs, 'id') ?? '');
    const target = rel && !rel.external && rel.type.endsWith('/worksheet') ? resolveTarget(path, rel.target) : undefined;
    sheets.push({ name, hidden: state === 'hidden' || state === 'veryHidden', ...(target && zip.names.includes(target) ? { path: target } : {}) });
  }
  const pr = [...startTags(xml, 'workbookPr')][0] ?? '';
  const flag = attr(pr, 'date1904');
  const partOf = (suffix: string): string | undefined => {
    const rel = rels.find((r) => r.type.endsWith(suffix));
    const target = rel ? resolveTarget(path, rel.target) : undefined;
    return target && zip.names.includes(target) ? target : undefined;
  };
  return {
    sheets,
    date1904: flag === '1' || flag === 'true',
    sharedStrings: sharedStrings(partText(zip, partOf('/sharedStrings'))),
    styleFormats: styleFormats(partText(zip, partOf('/styles'))),
    props: properties(zip),
  };
}
