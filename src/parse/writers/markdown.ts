/** Placeholder: the markdown writer lands in this change. */
export function toMarkdown(root: Element): string {
  return root.textContent ?? '';
}
