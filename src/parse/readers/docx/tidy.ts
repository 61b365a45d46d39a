/**
 * Small corrections of mammoth's HTML so it stays inside the intermediate vocabulary:
 *  - bookmark anchors (`<a id>` without href) and links to them (`href="#…"`, e.g. a table of
 *    contents) are unwrapped: the output has no anchors to land on; so are links whose scheme
 *    runs code or inlines data (javascript:, vbscript:, data:), which a Word file can carry;
 *  - form checkboxes (`<input type="checkbox">`) become the characters Word draws, ☒ / ☐;
 *  - rows left empty by vertical merges (`<tr></tr>`) are removed, and the row spans that
 *    counted them shortened.
 */

/** Schemes a link must not keep; leading white space and control characters are ignored, as browsers do. */
const UNSAFE_SCHEME = /^[\s\u0000-\u001f]*(?:javascript|vbscript|data):/i;

function unwrap(element: Element): void {
  const parent = element.parentNode;
  if (!parent) return;
  while (element.firstChild) parent.insertBefore(element.firstChild, element);
  parent.removeChild(element);
}

export function tidyMammothHtml(body: Element): void {
  for (const anchor of Array.from(body.querySelectorAll('a'))) {
    const href = anchor.getAttribute('href');
    if (href === null || href.startsWith('#') || UNSAFE_SCHEME.test(href)) unwrap(anchor);
  }
  for (const input of Array.from(body.querySelectorAll('input'))) {
    const checkbox = (input.getAttribute('type') ?? '').toLowerCase() === 'checkbox';
    if (checkbox) {
      const mark = input.hasAttribute('checked') ? '\u2612' : '\u2610';
      input.replaceWith(input.ownerDocument.createTextNode(mark));
    } else {
      input.remove();
    }
  }
  for (const table of Array.from(body.querySelectorAll('table'))) removeEmptyRows(table);
}

/** The table's own rows (not those of nested tables), in order. */
function rowsOf(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of Array.from(table.children)) {
    if (child.tagName === 'TR') rows.push(child);
    else if (child.tagName === 'THEAD' || child.tagName === 'TBODY' || child.tagName === 'TFOOT') {
      for (const row of Array.from(child.children)) if (row.tagName === 'TR') rows.push(row);
    }
  }
  return rows;
}

function removeEmptyRows(table: Element): void {
  const rows = rowsOf(table);
  for (let r = rows.length - 1; r >= 0; r--) {
    const row = rows[r] as Element;
    if (row.children.length > 0) continue;
    for (let above = 0; above < r; above++) {
      for (const cell of Array.from((rows[above] as Element).children)) {
        const span = Number(cell.getAttribute('rowspan') ?? 1);
        if (span > 1 && above + span > r) {
          if (span - 1 > 1) cell.setAttribute('rowspan', String(span - 1));
          else cell.removeAttribute('rowspan');
        }
      }
    }
    row.remove();
  }
}
