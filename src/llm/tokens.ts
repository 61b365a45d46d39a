/**
 * Token estimates and chunking, without a tokenizer (no dependency; docs/llm.md "Chunking"):
 * BPE tokenizers of current models give about 4 characters of English per token, fewer for other
 * alphabets, and about one token per CJK character. The estimate counts ASCII at 1/4 token,
 * other characters below U+3000 (accented Latin, Greek, Cyrillic, Arabic, Hebrew …) at 1/2 and
 * the rest (CJK, emoji) at 1: it errs on the high side, so a chunk fits the window.
 */

export function estimateTokens(text: string): number {
  let quarterTokens = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    quarterTokens += c < 0x80 ? 1 : c < 0x3000 ? 2 : 4;
  }
  return Math.ceil(quarterTokens / 4);
}

/** The longest prefix of `text` estimated at no more than `maxTokens`. */
function prefixWithin(text: string, maxTokens: number): number {
  let quarterTokens = 0;
  const budget = maxTokens * 4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    quarterTokens += c < 0x80 ? 1 : c < 0x3000 ? 2 : 4;
    if (quarterTokens > budget) return Math.max(1, i);
  }
  return text.length;
}

/** Pieces of a block too big for a chunk: at line ends, then sentence ends, then anywhere. */
function splitBlock(block: string, maxTokens: number): string[] {
  const out: string[] = [];
  let rest = block;
  while (estimateTokens(rest) > maxTokens) {
    const cut = prefixWithin(rest, maxTokens);
    const head = rest.slice(0, cut);
    const at = Math.max(head.lastIndexOf('\n'), head.lastIndexOf('. '), head.lastIndexOf('。'));
    const end = at > cut / 3 ? at + 1 : cut;
    out.push(rest.slice(0, end).trim());
    rest = rest.slice(end);
  }
  if (rest.trim()) out.push(rest.trim());
  return out.filter((p) => p.length > 0);
}

/**
 * The text in chunks of at most `maxTokens` (estimated), cut between paragraphs (blank lines)
 * where possible, so a table or a list stays whole unless it alone is bigger than a chunk.
 */
export function chunkText(text: string, maxTokens: number): string[] {
  if (estimateTokens(text) <= maxTokens) return [text];
  const blocks = text.split(/\n\s*\n/).flatMap((b) => (estimateTokens(b) > maxTokens ? splitBlock(b, maxTokens) : [b]));
  const chunks: string[] = [];
  let current = '';
  let currentTokens = 0;
  for (const block of blocks) {
    const t = estimateTokens(block) + 1;
    if (current && currentTokens + t > maxTokens) {
      chunks.push(current);
      current = '';
      currentTokens = 0;
    }
    current = current ? `${current}\n\n${block}` : block;
    currentTokens += t;
  }
  if (current.trim()) chunks.push(current);
  return chunks;
}
