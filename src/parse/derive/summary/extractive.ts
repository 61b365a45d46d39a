/**
 * The offline summary (issue 14, docs/derive.md): the document's own sentences, ranked by
 * TextRank, at most DEFAULT_MAX_SENTENCES of them and DEFAULT_MAX_CHARS characters, in document
 * order. Nothing is rewritten: every sentence of the summary is a sentence of the document
 * (whitespace normalised, footnote markers left out). Deterministic: the same document gives the
 * same summary. An empty string when the document has no sentence to quote; it never throws.
 *
 *   passages.ts   running text with its headings (tables, code, furniture skipped)
 *   sentences.ts  sentences and words in the document's language (CJK without spaces too)
 *   rank.ts       TF-IDF similarity graph, PageRank with a position/heading prior
 */
import type { ReadResult } from '../../document.ts';
import { collectPassages, headingTexts } from './passages.ts';
import { cosine, textRank, tfidfVectors, type SparseVector } from './rank.ts';
import { isSpacelessScript, splitSentences, words } from './sentences.ts';

export interface ExtractiveSummaryOptions {
  /** Upper bound on the summary's length in characters (default 1,000). */
  maxChars?: number;
  /** Upper bound on the number of sentences (default 5). */
  maxSentences?: number;
}

export const DEFAULT_MAX_CHARS = 1000;
export const DEFAULT_MAX_SENTENCES = 5;
/** The graph is quadratic in its sentences: a long document is ranked on its first ones. */
const MAX_GRAPH_SENTENCES = 600;
/** Text looked at for them, at most (a 10 MB cell of a spreadsheet is not read to the end). */
const MAX_SCAN_CHARS = 400_000;
/** A summary sentence more similar than this to one already chosen says the same thing again. */
const REDUNDANT = 0.5;
/** Section headings (several languages) whose sentences summarise the document. */
const KEY_SECTION = /^\s*(?:\d+(?:\.\d+)*\.?\s*)?(?:abstract|summary|executive summary|overview|introduction|conclusions?|key (?:findings|points)|tl;?dr|résumé|resume|zusammenfassung|kurzfassung|einleitung|fazit|resumen|introducción|conclusiones|riassunto|sommario|introduzione|samenvatting|resumo|sammanfattning|аннотация|резюме|введение|摘要|概要|要旨|要約|总结|概述|はじめに|요약|개요)\s*:?\s*$/iu;

interface Candidate {
  text: string;
  heading: string;
  tokens: string[];
}

/** Sentences a summary may quote: words enough, mostly letters, ended as sentences. */
function eligible(sentence: string, tokens: string[], spaceless: boolean): boolean {
  const length = spaceless ? sentence.length : tokens.length;
  const [min, max] = spaceless ? [8, 250] : [5, 80];
  if (length < min || length > max) return false;
  if (/https?:|www\.|\S+@\S+\.\w/.test(sentence)) return false;
  const visible = sentence.replace(/\s/g, '');
  const letters = visible.replace(/[^\p{L}]/gu, '').length;
  if (letters < visible.length * 0.6) return false;
  return /[.!?。！？…]["'”’)\]]?$/u.test(sentence) || (!spaceless && tokens.length >= 12);
}

function candidates(read: ReadResult): Candidate[] {
  const language = read.metadata.language;
  const out: Candidate[] = [];
  let scanned = 0;
  for (const passage of collectPassages(read.document.body, MAX_SCAN_CHARS)) {
    if (scanned > MAX_SCAN_CHARS) break;
    scanned += passage.text.length;
    for (const text of splitSentences(passage.text, language)) {
      const tokens = words(text, language);
      if (!eligible(text, tokens, isSpacelessScript(text))) continue;
      out.push({ text, heading: passage.heading, tokens });
      if (out.length >= MAX_GRAPH_SENTENCES) return out;
    }
  }
  return out;
}

/**
 * The teleport weights: early sentences, sentences of an abstract-like section, and sentences
 * sharing words with the title and headings are favoured.
 */
function priors(list: Candidate[], contextSimilarity: number[]): number[] {
  return list.map((c, i) => {
    const position = 1 + 3 / (1 + i / 6);
    const section = KEY_SECTION.test(c.heading) ? 6 : 1;
    return position * section * (1 + 2 * (contextSimilarity[i] ?? 0));
  });
}

export function extractiveSummary(read: ReadResult, options: ExtractiveSummaryOptions = {}): string {
  const sentences = summarySentences(read, options);
  return sentences.join(isSpacelessScript(sentences.join('')) ? '' : ' ');
}

/** The summary's sentences, in document order, each as the document has it (whitespace normalised). */
export function summarySentences(read: ReadResult, options: ExtractiveSummaryOptions = {}): string[] {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const maxSentences = options.maxSentences ?? DEFAULT_MAX_SENTENCES;
  const body = read.document.body;
  if (!body || maxChars <= 0 || maxSentences <= 0) return [];
  const list = candidates(read);
  if (list.length === 0) return [];
  const language = read.metadata.language;
  const context = [read.metadata.title ?? '', ...headingTexts(body)].join(' ');
  // The context is the last "sentence" of the IDF pool, so its words weigh as the document's do.
  const vectors = tfidfVectors([...list.map((c) => c.tokens), words(context, language)]);
  const contextVector = vectors.pop() as SparseVector;
  const ranked = textRank(vectors, priors(list, vectors.map((v) => cosine(v, contextVector))));
  ranked.sort((a, b) => b.score - a.score || a.index - b.index);

  const chosen: number[] = [];
  let chars = 0;
  for (const { index } of ranked) {
    if (chosen.length >= maxSentences) break;
    const text = (list[index] as Candidate).text;
    const separator = chosen.length > 0 ? 1 : 0;
    if (chars + separator + text.length > maxChars) continue;
    const v = vectors[index] as SparseVector;
    if (chosen.some((j) => cosine(v, vectors[j] as SparseVector) > REDUNDANT)) continue;
    chosen.push(index);
    chars += separator + text.length;
  }
  chosen.sort((a, b) => a - b);
  return chosen.map((i) => (list[i] as Candidate).text);
}
