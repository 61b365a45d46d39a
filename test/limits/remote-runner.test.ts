/**
 * The remote runner against a started folio service: the same data as an in-process parse, the
 * server's error codes carried back, a wrong key refused clearly (and never echoed or logged),
 * an unreachable or silent server answered in time with an error that names FOLIO_API_URL.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteRunner } from '../../src/limits/remote-runner.ts';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { startTestService, type TestService } from '../http/helpers.ts';
import { refusedPort } from '../helpers/refused-port.ts';
import { failure } from '../helpers/service-error.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ runner: inProcessRunner() });
});
afterAll(async () => {
  await service?.stop();
});

describe('createRemoteRunner', () => {
  it('returns the same data as an in-process parse, with the options sent along', async () => {
    const remote = createRemoteRunner({ apiUrl: service.url, apiKey: service.key });
    const input = { bytes: readCorpus('office', 'docx', 'kreuzberg-extraction_test.docx'), filename: 'extraction_test.docx' };
    const options = parseOptions({ formats: ['markdown', 'links'], onlyMainContent: false });
    const [viaServer, local] = await Promise.all([remote(input, options), inProcessRunner()(input, options)]);
    expect(viaServer.markdown).toContain('# Comprehensive Extraction Test Document');
    expect(viaServer.markdown).toBe(local.markdown);
    expect(viaServer.links).toEqual(local.links);
    expect(viaServer.metadata.title).toEqual(local.metadata.title);
    // html was not requested: the options part arrived.
    expect(viaServer.html).toBeUndefined();
  });

  it("carries the server's error code and message back", async () => {
    const remote = createRemoteRunner({ apiUrl: service.url, apiKey: service.key });
    const err = await failure(remote({ bytes: Buffer.from('plain text'), filename: 'notes.txt' }, parseOptions({})));
    expect(err.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(err.message).toContain(`the folio server at ${service.url} (FOLIO_API_URL): `);
  });

  it('a wrong key is UNAUTHORIZED with a message that names FOLIO_API_KEY and does not contain the key', async () => {
    const wrong = 'folio_wrongwrongwrongwrongwrongwrongwrongwrongwro';
    const remote = createRemoteRunner({ apiUrl: service.url, apiKey: wrong });
    const err = await failure(remote({ bytes: Buffer.from('<p>x</p>'), filename: 'a.html' }, parseOptions({})));
    expect(err.code).toBe('UNAUTHORIZED');
    expect(err.message).toContain('refused FOLIO_API_KEY: Invalid API key');
    expect(err.message).not.toContain(wrong);
    expect(service.logText()).not.toContain(wrong);
    expect(service.logText()).not.toContain(service.key);
  });

  it('an unreachable server is FETCH_FAILED naming the URL', async () => {
    const port = await refusedPort();
    const remote = createRemoteRunner({ apiUrl: `http://127.0.0.1:${port}`, apiKey: 'folio_x' });
    const err = await failure(remote({ bytes: Buffer.from('<p>x</p>'), filename: 'a.html' }, parseOptions({})));
    expect(err.code).toBe('FETCH_FAILED');
    expect(err.message).toContain(`Could not reach the folio server at http://127.0.0.1:${port} (FOLIO_API_URL): ECONNREFUSED`);
  });

  it('a server that never answers is a timeout after the parse timeout plus the transfer grace', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const remote = createRemoteRunner({ apiUrl: `http://127.0.0.1:${port}`, apiKey: 'folio_x', transferGraceMs: 200 });
      const started = Date.now();
      const err = await failure(remote({ bytes: Buffer.from('<p>x</p>'), filename: 'a.html' }, parseOptions({ timeout: 300 })));
      expect(err.code).toBe('SCRAPE_TIMEOUT');
      expect(err.message).toContain('did not answer within 500 ms');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('a URL that is not a folio server is FETCH_FAILED with a hint', async () => {
    const other = http.createServer((_req, res) => res.end('<html>hello</html>'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(other.address() as net.AddressInfo).port}`;
      const remote = createRemoteRunner({ apiUrl: url, apiKey: service.key });
      const err = await failure(remote({ bytes: Buffer.from('<p>x</p>'), filename: 'a.html' }, parseOptions({})));
      expect(err.code).toBe('FETCH_FAILED');
      expect(err.message).toContain('answered HTTP 200 with a body that is not a folio parse response');
    } finally {
      other.closeAllConnections();
      await new Promise<void>((r) => other.close(() => r()));
    }
  });

  it('a cancelled call stops with the caller’s reason', async () => {
    const remote = createRemoteRunner({ apiUrl: service.url, apiKey: service.key });
    const controller = new AbortController();
    const reason = new Error('cancelled by the client');
    controller.abort(reason);
    await expect(remote({ bytes: Buffer.from('<p>x</p>'), filename: 'a.html' }, parseOptions({}), { signal: controller.signal })).rejects.toBe(reason);
  });
});
