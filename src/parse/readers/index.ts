/** One reader per document kind; each produces the same intermediate document. */
import { ServiceError } from '../../errors.ts';
import type { DocumentKind } from '../detect.ts';
import type { Reader } from '../document.ts';
import { readDocx } from './docx/index.ts';
import { readHtml } from './html/index.ts';
import { readPdf } from './pdf/index.ts';
import { readSpreadsheet } from './spreadsheet/index.ts';

function notYetSupported(label: string): Reader {
  return async () => {
    throw new ServiceError(
      'NOT_YET_SUPPORTED',
      `${label} files are accepted by the interface but this folio build cannot read them yet. Convert the file to .docx or .pdf and upload it again.`,
    );
  };
}

export const READERS: Record<DocumentKind, Reader> = {
  html: readHtml,
  pdf: readPdf,
  docx: readDocx,
  xlsx: readSpreadsheet,
  xls: readSpreadsheet,
  doc: notYetSupported('Word 97–2003 (.doc)'),
  odt: notYetSupported('OpenDocument text (.odt)'),
  rtf: notYetSupported('RTF (.rtf)'),
};
