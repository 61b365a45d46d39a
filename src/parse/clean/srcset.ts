/**
 * Responsive images: the largest candidate of a `srcset` (HTML "parse a srcset attribute"),
 * judged by its `w` descriptor, else its `x` density (1x when none is given). URLs may contain
 * commas (`…/w_300,h_200/…`); only a comma after the URL and its descriptors separates
 * candidates.
 */

export interface SrcsetCandidate {
  url: string;
  width?: number;
  density?: number;
}

const SPACE = /\s/;

export function parseSrcset(value: string): SrcsetCandidate[] {
  const out: SrcsetCandidate[] = [];
  let i = 0;
  const n = value.length;
  while (i < n) {
    while (i < n && (SPACE.test(value[i] as string) || value[i] === ',')) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !SPACE.test(value[i] as string)) i++;
    let url = value.slice(start, i);
    let descriptors = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      const descStart = i;
      let depth = 0;
      while (i < n) {
        const c = value[i];
        if (c === '(') depth++;
        else if (c === ')') depth = Math.max(0, depth - 1);
        else if (c === ',' && depth === 0) break;
        i++;
      }
      descriptors = value.slice(descStart, i);
      i++;
    }
    if (!url) continue;
    const candidate: SrcsetCandidate = { url };
    for (const d of descriptors.trim().split(/\s+/)) {
      const m = /^(\d+(?:\.\d+)?)([wx])$/i.exec(d);
      if (!m) continue;
      const number = Number(m[1]);
      if ((m[2] as string).toLowerCase() === 'w') candidate.width = number;
      else candidate.density = number;
    }
    out.push(candidate);
  }
  return out;
}

/**
 * The largest candidate among all given sets: the widest when any has a width, else the
 * densest. `fallback` (the `src`) counts as a 1x candidate that wins ties.
 */
export function largestCandidate(candidates: SrcsetCandidate[], fallback?: string): string | undefined {
  const withWidth = candidates.filter((c) => c.width !== undefined);
  if (withWidth.length > 0) {
    let best = withWidth[0] as SrcsetCandidate;
    for (const c of withWidth) if ((c.width as number) > (best.width as number)) best = c;
    return best.url;
  }
  let best: SrcsetCandidate | undefined = fallback ? { url: fallback, density: 1 } : undefined;
  for (const c of candidates) {
    const density = c.density ?? 1;
    if (!best || density > (best.density ?? 1)) best = { url: c.url, density };
  }
  return best?.url;
}
