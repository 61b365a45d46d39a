/**
 * The `html` format: the cleaned document's body content, serialized as it is (the clean step has
 * already applied onlyMainContent, include/exclude tags, ads, base64 images and absolute URLs).
 */

/**
 * The document's content body. linkedom's `document.body` getter only looks right after the
 * `<head>`; when something precedes it (a `<script>` before `<head>` in real pages) the getter
 * creates a new, empty body. The real one is the `<body>` child of `<html>` that holds content.
 */
export function contentBody(document: Document): HTMLElement {
  const root = document.documentElement;
  if (root) {
    let fallback: HTMLElement | undefined;
    for (let child = root.firstElementChild; child !== null; child = child.nextElementSibling) {
      if (child.nodeName !== 'BODY') continue;
      if (child.firstChild !== null) return child as HTMLElement;
      fallback ??= child as HTMLElement;
    }
    if (fallback) return fallback;
  }
  return document.body;
}

export function toHtml(document: Document): string {
  return contentBody(document).innerHTML;
}
