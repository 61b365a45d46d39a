/**
 * TextRank (Mihalcea & Tarau, 2004) over the document's sentences: a graph whose edges are the
 * TF-IDF cosine similarity of two sentences, ranked by PageRank with a personalised teleport
 * vector (a prior) so that position and headings count as context: a sentence near the start, in
 * a section headed "Abstract"/"Summary"/…, or sharing words with the title and headings is where
 * a random reader jumps more often.
 */

export interface RankedSentence {
  /** Index in document order. */
  index: number;
  score: number;
}

const DAMPING = 0.85;
const ITERATIONS = 40;
const EPSILON = 1e-7;

/** Sparse TF-IDF vectors (term id → weight), unit length; IDF from the document's own sentences. */
export function tfidfVectors(tokenised: string[][]): Map<number, number>[] {
  const ids = new Map<string, number>();
  const df: number[] = [];
  const counts = tokenised.map((tokens) => {
    const tf = new Map<number, number>();
    for (const t of tokens) {
      let id = ids.get(t);
      if (id === undefined) {
        id = ids.size;
        ids.set(t, id);
        df.push(0);
      }
      tf.set(id, (tf.get(id) ?? 0) + 1);
    }
    for (const id of tf.keys()) df[id] = (df[id] ?? 0) + 1;
    return tf;
  });
  const n = tokenised.length;
  return counts.map((tf) => {
    const v = new Map<number, number>();
    let norm = 0;
    for (const [id, c] of tf) {
      const w = (1 + Math.log(c)) * Math.log((n + 1) / (df[id] ?? 1));
      v.set(id, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [id, w] of v) v.set(id, w / norm);
    return v;
  });
}

export function cosine(a: Map<number, number>, b: Map<number, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [id, w] of small) {
    const o = large.get(id);
    if (o !== undefined) dot += w * o;
  }
  return dot;
}

/**
 * PageRank scores of the similarity graph, teleporting by `prior` (any positive weights), each
 * multiplied by its prior again: teleporting alone gives a favoured sentence 15% of its weight
 * and passes the rest to its neighbours, so a conclusion linked to the methods by common words
 * would lift the methods, not itself.
 */
export function textRank(vectors: Map<number, number>[], prior: number[]): RankedSentence[] {
  const n = vectors.length;
  const edges: { to: number; w: number }[][] = Array.from({ length: n }, () => []);
  const outWeight = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const w = cosine(vectors[i] as Map<number, number>, vectors[j] as Map<number, number>);
      if (w <= 0.01) continue;
      (edges[i] as { to: number; w: number }[]).push({ to: j, w });
      (edges[j] as { to: number; w: number }[]).push({ to: i, w });
      outWeight[i] = (outWeight[i] ?? 0) + w;
      outWeight[j] = (outWeight[j] ?? 0) + w;
    }
  }
  const priorSum = prior.reduce((a, b) => a + b, 0) || 1;
  const teleport = prior.map((p) => p / priorSum);
  let score = Float64Array.from(teleport);
  for (let iter = 0; iter < ITERATIONS; iter++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) if ((outWeight[i] ?? 0) === 0) dangling += score[i] ?? 0;
    for (let i = 0; i < n; i++) {
      const s = score[i] ?? 0;
      const ow = outWeight[i] ?? 0;
      if (ow === 0) continue;
      for (const e of edges[i] as { to: number; w: number }[]) next[e.to] = (next[e.to] ?? 0) + (s * e.w) / ow;
    }
    let delta = 0;
    for (let i = 0; i < n; i++) {
      const t = teleport[i] ?? 0;
      const v = (1 - DAMPING) * t + DAMPING * ((next[i] ?? 0) + dangling * t);
      delta += Math.abs(v - (score[i] ?? 0));
      next[i] = v;
    }
    score = next;
    if (delta < EPSILON) break;
  }
  return Array.from(score, (s, index) => ({ index, score: s * (teleport[index] ?? 0) }));
}
