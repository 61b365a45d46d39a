/** Placeholder: the html writer lands in this change. */
export function toHtml(document: Document): string {
  return document.body.innerHTML;
}
