/**
 * Tagged PDF (ISO 32000-1 §14.7–14.8): the page's structure tree as a lookup from marked-content
 * ids to the standard structure type of the block that holds them, so words and images know
 * whether they are a heading, a list item, a table cell, a figure (with its alternative text).
 */
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';

export interface ContentRole {
  /** The nearest block-level structure type ('H1', 'P', 'LI', 'TD', 'Figure', …). */
  role: string;
  /** `/Alt` of the nearest element that has one (a Figure's description). */
  alt?: string;
}

/**
 * Inline structure types (§14.8.4.4) say nothing about the block: a Link inside a P is text of
 * the P. Lbl and LBody are the two halves of a list item (§14.8.4.3.3), so they count as LI.
 */
const INLINE = new Set(['Span', 'Link', 'Annot', 'Quote', 'Reference', 'BibEntry', 'Code', 'Ruby', 'Warichu', 'Em', 'Strong', 'Sub', 'NonStruct', 'Private', 'HyphenSpan']);
const LIST_ITEM_PARTS = new Set(['Lbl', 'LBody']);
/** Grouping types (§14.8.4.2) hold blocks of any kind: a word in a Div alone has no block role. */
const GROUPING = new Set(['Document', 'DocumentFragment', 'Part', 'Art', 'Sect', 'Div', 'Aside', 'Index']);

interface TreeNode {
  role?: unknown;
  alt?: unknown;
  children?: unknown;
  type?: unknown;
  id?: unknown;
}

/** Marked-content id (`p12R_mc3`) → its role. Empty when the page has no structure tree. */
export async function contentRoles(page: PDFPageProxy): Promise<Map<string, ContentRole>> {
  const roles = new Map<string, ContentRole>();
  let tree: TreeNode | null;
  try {
    tree = (await page.getStructTree()) as TreeNode | null;
  } catch {
    return roles;
  }
  if (!tree) return roles;
  // Iterative walk: structure trees can be deep, and a hostile one deeper still.
  const stack: { node: TreeNode; role: string; alt: string | undefined }[] = [{ node: tree, role: '', alt: undefined }];
  let visited = 0;
  while (stack.length > 0 && visited++ < 200_000) {
    const { node, role, alt } = stack.pop() as { node: TreeNode; role: string; alt: string | undefined };
    if (node.type === 'content' && typeof node.id === 'string') {
      if (role !== '') roles.set(node.id, alt === undefined ? { role } : { role, alt });
      continue;
    }
    let here = role;
    if (typeof node.role === 'string' && node.role !== '' && !INLINE.has(node.role) && !GROUPING.has(node.role)) here = LIST_ITEM_PARTS.has(node.role) ? 'LI' : node.role;
    const hereAlt = typeof node.alt === 'string' && node.alt.trim() !== '' && node.alt !== '\u00AD' ? node.alt.trim() : alt;
    if (Array.isArray(node.children)) {
      for (let i = node.children.length - 1; i >= 0; i--) {
        const child: unknown = node.children[i];
        if (typeof child === 'object' && child !== null) stack.push({ node: child as TreeNode, role: here, alt: hereAlt });
      }
    }
  }
  return roles;
}

/** `p12R_mc3` → 3: the operator list knows marked content by its MCID only. */
export function mcidOf(id: string): number | undefined {
  const m = /_mc(\d+)$/.exec(id);
  return m ? Number(m[1]) : undefined;
}
