/**
 * Table fixes made in document.xml before mammoth reads it. mammoth already turns `w:gridSpan`
 * into colspan, `w:vMerge` into rowspan and `w:tblHeader` rows into `<thead>`, but it ignores
 * `w:gridBefore`/`w:gridAfter` (ECMA-376 §17.4.14/§17.4.15: grid columns skipped before the
 * first cell or after the last one). A row that starts late then has its cells shifted left and
 * its vertical merges attached to the wrong column. Each skipped run of grid columns becomes an
 * empty cell spanning them, so mammoth's own span logic sees the true grid.
 *
 * This is a text scan, not a parse: document.xml can be tens of megabytes, and only rows with
 * those two properties change.
 */

function gridValue(trPr: string, name: 'w:gridBefore' | 'w:gridAfter'): number {
  const match = new RegExp(`<${name}\\b[^>]*\\sw:val\\s*=\\s*["'](\\d+)["']`).exec(trPr);
  const value = match?.[1] ? Number(match[1]) : 0;
  // A grid has at most 63 columns in Word; anything larger is damage, not layout.
  return value > 0 && value <= 1000 ? value : 0;
}

function emptyCell(span: number): string {
  return `<w:tc><w:tcPr><w:gridSpan w:val="${span}"/></w:tcPr><w:p/></w:tc>`;
}

/** Returns document.xml with skipped grid columns filled by empty spanning cells. */
export function fillSkippedGridColumns(documentXml: string): string {
  if (!documentXml.includes('w:gridBefore') && !documentXml.includes('w:gridAfter')) return documentXml;
  const token = /<w:tr[\s>]|<\/w:tr>|<w:trPr\b[^>]*\/>|<w:trPr\b[^>]*>[\s\S]*?<\/w:trPr>/g;
  const rows: { after: number }[] = [];
  const parts: string[] = [];
  let last = 0;
  for (const match of documentXml.matchAll(token)) {
    const text = match[0];
    const at = match.index;
    if (text.startsWith('<w:trPr')) {
      const row = rows[rows.length - 1];
      if (!row || text.includes('w:trPrChange')) continue;
      const before = gridValue(text, 'w:gridBefore');
      row.after = gridValue(text, 'w:gridAfter');
      if (before > 0) {
        parts.push(documentXml.slice(last, at + text.length), emptyCell(before));
        last = at + text.length;
      }
    } else if (text === '</w:tr>') {
      const row = rows.pop();
      if (row && row.after > 0) {
        parts.push(documentXml.slice(last, at), emptyCell(row.after));
        last = at;
      }
    } else {
      rows.push({ after: 0 });
    }
  }
  if (last === 0) return documentXml;
  parts.push(documentXml.slice(last));
  return parts.join('');
}
