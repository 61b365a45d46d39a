/**
 * The official Firecrawl JS SDK, pointed at a started folio, works unchanged: it parses a corpus
 * HTML page and a corpus .docx, and its error path carries folio's 401 and 400 answers.
 */
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../auth/api-keys.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { startTestService, type TestService } from './helpers.ts';

let service: TestService;
let client: Firecrawl;
beforeAll(async () => {
  service = await startTestService();
  client = new Firecrawl({ apiKey: service.key, apiUrl: service.url });
});
afterAll(async () => {
  await service.stop();
});

describe('Firecrawl SDK against folio', () => {
  it('parses a corpus HTML page to markdown and links', async () => {
    const doc = await client.parse(
      { data: readCorpus('html', 'markitdown', 'test_blog.html'), filename: 'test_blog.html', contentType: 'text/html' },
      { formats: ['markdown', 'links'] },
    );
    expect(doc.markdown).toContain(
      'Large language models (LLMs) are powerful tools that can generate natural language texts for various applications, such as chatbots, summarization, translation, and more. GPT-4 is currently the state of the art LLM in the world. Is model selection irrelevant? What about inference parameters?',
    );
    expect(doc.markdown).toContain('an example where high cost can easily prevent a generic complex');
    expect(doc.links).toContain('https://arxiv.org/abs/2303.04673');
    expect(doc.metadata?.contentType).toBe('text/html');
    expect(doc.metadata?.sourceURL).toBe('file:///test_blog.html');
  });

  it('parses a corpus .docx with its headings and tables', async () => {
    const doc = await client.parse(
      {
        data: readCorpus('office', 'docx', 'kreuzberg-extraction_test.docx'),
        filename: 'extraction_test.docx',
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
      { formats: ['markdown'] },
    );
    expect(doc.markdown).toContain('# Comprehensive Extraction Test Document');
    expect(doc.markdown).toContain('## Second Section');
    expect(doc.markdown).toMatch(/\|\s*Header 1\s*\|\s*Header 2\s*\|\s*Header 3\s*\|/);
    expect(doc.markdown).toMatch(/\|\s*Orange\s*\|\s*\$0\.75\s*\|\s*15\s*\|/);
    expect(doc.metadata?.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('a wrong key surfaces as an SdkError with status 401 and folio’s message', async () => {
    const wrong = new Firecrawl({ apiKey: generateApiKey(), apiUrl: service.url });
    const failure = await wrong
      .parse({ data: readCorpus('html', 'markitdown', 'test_blog.html'), filename: 'test_blog.html', contentType: 'text/html' })
      .then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    const err = failure as SdkError;
    expect(err.status).toBe(401);
    expect(err.code).toBe('UNAUTHORIZED');
    expect(err.message).toContain('Invalid API key');
  });

  it('a 400 from folio surfaces with its code and message', async () => {
    const failure = await client
      .parse({ data: Buffer.from('just words'), filename: 'notes.txt', contentType: 'text/plain' })
      .then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).status).toBe(400);
    expect((failure as SdkError).code).toBe('UNSUPPORTED_FILE_TYPE');
    expect((failure as SdkError).message).toContain("'.txt'");
  });
});
