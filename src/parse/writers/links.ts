/**
 * The `links` and `images` formats, read from the cleaned document in document order.
 *
 * links: every `a[href]`, deduplicated; `javascript:`/`vbscript:` links and empty or bare `#`
 * hrefs are left out (they lead nowhere); `mailto:`, `tel:` and in-page `#fragment` links are kept.
 * images: every `img[src]` except inline `data:` images, deduplicated.
 * URLs are reported as the document holds them: the clean step has already made them absolute
 * when the document has a base URL.
 */

/** The attribute as a URL string: trimmed, with the tabs and newlines URL parsing ignores removed. */
function urlAttribute(el: Element, name: string): string {
  return (el.getAttribute(name) ?? '').replace(/[\t\n\r]/g, '').trim();
}

function unique(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

export function collectLinks(document: Document): string[] {
  const out: string[] = [];
  for (const a of Array.from(document.querySelectorAll('a[href]'))) {
    const href = urlAttribute(a, 'href');
    if (href === '' || href === '#' || /^(?:java|vb)script:/i.test(href)) continue;
    out.push(href);
  }
  return unique(out);
}

export function collectImages(document: Document): string[] {
  const out: string[] = [];
  for (const img of Array.from(document.querySelectorAll('img[src]'))) {
    const src = urlAttribute(img, 'src');
    if (src === '' || /^data:/i.test(src)) continue;
    out.push(src);
  }
  return unique(out);
}
