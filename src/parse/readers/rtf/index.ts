/**
 * The .rtf reader (also serves a `.doc` whose bytes are RTF): tokenizer.ts reads the bytes in
 * one pass, interpreter.ts runs the group/destination state machine into stories (main text,
 * footnotes, headers, footers), and the stories render to the intermediate document: running
 * headers and footers as page furniture, notes after an `<hr>` at the end, `\info` as metadata.
 */
import { isServiceError, ServiceError } from '../../../errors.ts';
import { documentFromHtml, type ReadInput, type ReadResult } from '../../document.ts';
import { Interpreter, type Interpretation } from './interpreter.ts';
import { buildMetadata } from './metadata.ts';
import type { Story } from './story.ts';
import { COMMENTS_LEFT_OUT } from '../comments.ts';

function furniture(stories: Story[], tag: 'header' | 'footer'): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const story of stories) {
    const html = story.render();
    if (html === '' || seen.has(html)) continue;
    seen.add(html);
    out.push(`<${tag} data-furniture="${tag}">${html}</${tag}>`);
  }
  return out;
}

function bodyHtml(result: Interpretation): string {
  const parts: string[] = [...furniture(result.headers, 'header'), result.main.render()];
  if (result.footnotes.length > 0) {
    parts.push('<hr>');
    for (const note of result.footnotes) parts.push(note.render());
  }
  parts.push(...furniture(result.footers, 'footer'));
  return parts.join('');
}

export async function readRtf(input: ReadInput): Promise<ReadResult> {
  input.signal.throwIfAborted();
  let result: Interpretation;
  const interpreter = new Interpreter(input.bytes, input.signal);
  try {
    result = interpreter.run();
  } catch (err) {
    if (isServiceError(err) || input.signal.aborted) throw err;
    if (err instanceof RangeError) {
      throw new ServiceError('CORRUPT_FILE', 'The RTF document could not be read: it is damaged. Re-save it from the program that made it and upload it again.');
    }
    throw err;
  }
  const metadata = buildMetadata(result.info);
  const warnings: string[] = [];
  if (interpreter.pictures > 0 && input.options.removeBase64Images === false) {
    const pictures =
      interpreter.pictures === 1 ? 'The picture in this RTF document is shown as a placeholder' : `The ${interpreter.pictures} pictures in this RTF document are shown as placeholders`;
    warnings.push(`${pictures}: folio does not extract RTF picture data yet.`);
  }
  if (interpreter.comments > 0) warnings.push(COMMENTS_LEFT_OUT);
  const document = documentFromHtml(bodyHtml(result), metadata.language);
  input.signal.throwIfAborted();
  return {
    document,
    metadata,
    warnings,
    rawHtml: `<!DOCTYPE html>\n${document.documentElement.outerHTML}`,
  };
}
