/** Placeholder: the links/images writers land in this change. */
export function collectLinks(_document: Document): string[] {
  return [];
}
export function collectImages(_document: Document): string[] {
  return [];
}
