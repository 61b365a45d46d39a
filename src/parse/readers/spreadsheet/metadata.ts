/**
 * Workbook properties (OOXML core/app parts, OLE SummaryInformation) as document metadata:
 * Title, Subject (or, failing it, Comments) as the description, Keywords, Language, and the
 * author and dates as extra keys.
 */
import type * as XLSX from 'xlsx';
import { emptyMetadata, type DocumentMetadata } from '../../document.ts';

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** ISO 8601 for a Date or a date string SheetJS passes through; undefined if it is no date. */
function isoDate(value: unknown): string | undefined {
  const date = value instanceof Date ? value : typeof value === 'string' && value.trim() !== '' ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) return undefined;
  return date.toISOString();
}

export function workbookMetadata(props: XLSX.FullProperties | undefined): DocumentMetadata {
  const metadata = emptyMetadata();
  if (!props) return metadata;
  const title = text(props.Title);
  const description = text(props.Subject) ?? text(props.Comments);
  const keywords = text(props.Keywords);
  const language = text(props.Language);
  if (title) metadata.title = title;
  if (description) metadata.description = description;
  if (keywords) metadata.keywords = keywords;
  if (language) metadata.language = language;
  const extra: [string, string | undefined][] = [
    ['author', text(props.Author)],
    ['lastModifiedBy', text(props.LastAuthor)],
    ['category', text(props.Category)],
    ['company', text(props.Company)],
    ['created', isoDate(props.CreatedDate)],
    ['modified', isoDate(props.ModifiedDate)],
  ];
  for (const [key, value] of extra) if (value) metadata.extra[key] = value;
  return metadata;
}
