/**
 * `folio mcp` with FOLIO_API_URL and FOLIO_API_KEY: parse reads the local file (still confined to
 * the roots) and sends it to a started folio service's /v2/parse. The markdown equals an
 * in-process stdio server's; a wrong key is a clear tool error; the key is in no log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { CORPUS_DIR, corpusPath } from '../helpers/corpus.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { callParse, connectStdio, textOf, type SpawnedServer } from './stdio-helpers.ts';

const WRONG_KEY = 'folio_notarealkeynotarealkeynotarealkeynotareal';

let service: TestService;
let remote: SpawnedServer;
let local: SpawnedServer;
let wrong: SpawnedServer;

beforeAll(async () => {
  service = await startTestService({ runner: inProcessRunner() });
  const env = { FOLIO_ALLOWED_DIRS: CORPUS_DIR, LOG_LEVEL: 'info' };
  [remote, local, wrong] = await Promise.all([
    connectStdio({ ...env, FOLIO_API_URL: service.url, FOLIO_API_KEY: service.key }),
    connectStdio(env),
    connectStdio({ ...env, FOLIO_API_URL: service.url, FOLIO_API_KEY: WRONG_KEY }),
  ]);
});

afterAll(async () => {
  await Promise.all([remote?.close(), local?.close(), wrong?.close()]);
  await service?.stop();
});

describe('folio mcp with FOLIO_API_URL', () => {
  it('gives the same markdown as parsing in-process, and the service did the parse', async () => {
    const file = corpusPath('office', 'docx', 'kreuzberg-extraction_test.docx');
    const args = { filePath: file, formats: ['markdown', 'links'] };
    const [viaService, inProcess] = await Promise.all([callParse(remote.client, args), callParse(local.client, args)]);
    expect(viaService.isError).toBeFalsy();
    expect(textOf(viaService)).toContain('# Comprehensive Extraction Test Document');
    expect(textOf(viaService)).toBe(textOf(inProcess));
    const a = viaService.structuredContent as { markdown: string; links: string[] };
    const b = inProcess.structuredContent as { markdown: string; links: string[] };
    expect(a.markdown).toBe(b.markdown);
    expect(a.links).toEqual(b.links);
    expect(service.logLines().some((l) => l.path === '/v2/parse' && l.status === 200)).toBe(true);
    expect(remote.stderr()).toContain('"msg":"parsing on the folio server at FOLIO_API_URL"');
  });

  it('still confines filePath to the roots: the file is never sent', async () => {
    const before = service.logLines().filter((l) => l.path === '/v2/parse').length;
    const result = await callParse(remote.client, { filePath: '/etc/passwd' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'FORBIDDEN' });
    expect(service.logLines().filter((l) => l.path === '/v2/parse').length).toBe(before);
  });

  it("carries the service's error code back (an unsupported file)", async () => {
    const result = await callParse(remote.client, { filePath: corpusPath('README.md') });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'UNSUPPORTED_FILE_TYPE' });
    expect(textOf(result)).toContain(`the folio server at ${service.url} (FOLIO_API_URL): `);
  });

  it('a wrong key is a tool error that says the key was refused, and no key reaches a log', async () => {
    const result = await callParse(wrong.client, { filePath: corpusPath('html', 'markitdown', 'test_blog.html') });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(textOf(result)).toContain(`the folio server at ${service.url} (FOLIO_API_URL) refused FOLIO_API_KEY: Invalid API key`);
    expect(textOf(result)).not.toContain(WRONG_KEY);
    for (const log of [service.logText(), wrong.stderr(), remote.stderr()]) {
      expect(log).not.toContain(WRONG_KEY);
      expect(log).not.toContain(service.key);
    }
  });
});
