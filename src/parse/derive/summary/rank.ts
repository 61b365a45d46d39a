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
const EPSILON = 1e-6;
/** Edges weaker than this (two sentences sharing one common word) are left out of the graph. */
const MIN_EDGE = 0.03;

/** A sparse vector: term ids ascending, with their weights. */
export interface SparseVector {
  ids: Int32Array;
  weights: Float64Array;
}

/** Sparse TF-IDF vectors of unit length; IDF from the document's own sentences. */
export function tfidfVectors(tokenised: string[][]): SparseVector[] {
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
    const entries = [...tf.entries()].sort((a, b) => a[0] - b[0]);
    const v: SparseVector = { ids: Int32Array.from(entries, (e) => e[0]), weights: new Float64Array(entries.length) };
    let norm = 0;
    entries.forEach(([id, c], i) => {
      const w = (1 + Math.log(c)) * Math.log((n + 1) / (df[id] ?? 1));
      v.weights[i] = w;
      norm += w * w;
    });
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < v.weights.length; i++) v.weights[i] = (v.weights[i] ?? 0) / norm;
    return v;
  });
}

/** Dot product of two unit vectors by merging their sorted ids. */
export function cosine(a: SparseVector, b: SparseVector): number {
  let i = 0;
  let j = 0;
  let dot = 0;
  const ai = a.ids;
  const bi = b.ids;
  while (i < ai.length && j < bi.length) {
    const x = ai[i] as number;
    const y = bi[j] as number;
    if (x === y) {
      dot += (a.weights[i] as number) * (b.weights[j] as number);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return dot;
}

/**
 * PageRank scores of the similarity graph, teleporting by `prior` (any positive weights), each
 * multiplied by its prior again: teleporting alone gives a favoured sentence 15% of its weight
 * and passes the rest to its neighbours, so a conclusion linked to the methods by common words
 * would lift the methods, not itself.
 */
export function textRank(vectors: SparseVector[], prior: number[]): RankedSentence[] {
  const n = vectors.length;
  // The graph in compressed rows: neighbours and weights of sentence i at rowStart[i]…rowStart[i+1].
  const pairs: number[] = [];
  const degree = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const w = cosine(vectors[i] as SparseVector, vectors[j] as SparseVector);
      if (w <= MIN_EDGE) continue;
      pairs.push(i, j, w);
      degree[i] = (degree[i] ?? 0) + 1;
      degree[j] = (degree[j] ?? 0) + 1;
    }
  }
  const rowStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowStart[i + 1] = (rowStart[i] ?? 0) + (degree[i] ?? 0);
  const fill = rowStart.slice(0, n);
  const neighbour = new Int32Array(rowStart[n] ?? 0);
  const weight = new Float64Array(rowStart[n] ?? 0);
  const outWeight = new Float64Array(n);
  for (let k = 0; k < pairs.length; k += 3) {
    const i = pairs[k] as number;
    const j = pairs[k + 1] as number;
    const w = pairs[k + 2] as number;
    neighbour[fill[i] as number] = j;
    weight[fill[i] as number] = w;
    fill[i] = (fill[i] as number) + 1;
    neighbour[fill[j] as number] = i;
    weight[fill[j] as number] = w;
    fill[j] = (fill[j] as number) + 1;
    outWeight[i] = (outWeight[i] as number) + w;
    outWeight[j] = (outWeight[j] as number) + w;
  }
  const priorSum = prior.reduce((a, b) => a + b, 0) || 1;
  const teleport = Float64Array.from(prior, (p) => p / priorSum);
  let score = Float64Array.from(teleport);
  for (let iter = 0; iter < ITERATIONS; iter++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      const ow = outWeight[i] as number;
      if (ow === 0) {
        dangling += score[i] as number;
        continue;
      }
      const share = (score[i] as number) / ow;
      for (let k = rowStart[i] as number; k < (rowStart[i + 1] as number); k++) next[neighbour[k] as number] = (next[neighbour[k] as number] as number) + share * (weight[k] as number);
    }
    let delta = 0;
    for (let i = 0; i < n; i++) {
      const t = teleport[i] as number;
      const v = (1 - DAMPING) * t + DAMPING * ((next[i] as number) + dangling * t);
      delta += Math.abs(v - (score[i] as number));
      next[i] = v;
    }
    score = next;
    if (delta < EPSILON) break;
  }
  return Array.from(score, (s, index) => ({ index, score: s * (teleport[index] ?? 0) }));
}
