/**
 * The local tool server over stdio (issue 5 §6; MCP 2025-11-25 "Transports › stdio"): every tool,
 * for the one user on this machine (caller `{kind: 'local', owner: 'local'}`); `parse` reads
 * `filePath` directly, confined to the allowed roots (src/mcp/local-files.ts, client-roots.ts).
 *
 * "The server MUST NOT write anything to its stdout that is not a valid MCP message": stdout is
 * reserved for the transport before anything else runs. Everything else that writes there —
 * console.log/info/debug/warn of a library (pdf.js and SheetJS talk on the console), or a direct
 * process.stdout.write — goes to stderr instead, which the spec lets the client capture or ignore.
 * Logs go to stderr too (the CLI gives the logger fd 2).
 *
 * The server stops when stdin ends (the client closed it or went away): in-flight calls are
 * aborted, the runner is closed, and `closed` resolves.
 */
import { Writable, type Readable } from 'node:stream';
import { format } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Caller } from '../../tools/types.ts';
import { buildTools, type ToolDeps } from '../../tools/index.ts';
import type { Logger } from '../log.ts';
import { clientRoots } from './client-roots.ts';
import { createLocalFileReader } from './local-files.ts';
import { createMcpServer } from './server.ts';

export const LOCAL_CALLER: Caller = Object.freeze({ kind: 'local', owner: 'local' });

/**
 * Reserves the process's stdout for protocol messages: returns the only stream that still writes
 * there, and sends every other stdout write (console included) to stderr. Call once, first.
 */
export function reserveStdoutForProtocol(stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr): Writable {
  const protocolWrite = stdout.write.bind(stdout);
  const toStderr = (...args: unknown[]): void => {
    stderr.write(`${format(...args)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
  // Whatever else reaches stdout (console.dir, console.table, a direct write) lands on stderr.
  stdout.write = stderr.write.bind(stderr) as typeof stdout.write;
  const protocol = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      // The callback fires once the chunk is flushed: the transport sees stdout's backpressure.
      protocolWrite(chunk, (err) => callback(err ?? null));
    },
  });
  // A client that went away (EPIPE) ends the server rather than crashing it.
  stdout.on('error', (err) => protocol.destroy(err));
  return protocol;
}

export interface StdioServerOptions {
  /**
   * What the tools run on: `runner` parses in this process (inProcessRunner) or on a remote folio
   * server (createRemoteRunner); `fetcher` and `crawls` bring scrape, map, crawl, crawl_status,
   * batch_scrape, batch_scrape_status.
   * File access is added here (`localFiles`); a local server hands out no upload refs.
   */
  tools: Omit<ToolDeps, 'localFiles' | 'uploads'>;
  logger: Logger;
  /** Where `parse` may read when the client sends no roots: FOLIO_ALLOWED_DIRS, else the working directory. */
  fallbackRoots: readonly string[];
  stdin?: Readable;
  /** The protocol stream (see reserveStdoutForProtocol); process.stdout when absent. */
  stdout?: Writable;
  version?: string;
}

export interface StdioServer {
  server: Server;
  /** Resolves when the server has stopped (stdin ended, or close() was called). */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function startStdioServer(options: StdioServerOptions): Promise<StdioServer> {
  const { logger } = options;
  const stdin = options.stdin ?? process.stdin;
  // The roots are asked of the server's client, which exists only once the server does.
  let roots: () => Promise<string[]> = async () => [...options.fallbackRoots];
  const localFiles = createLocalFileReader({ roots: () => roots() });
  const tools = buildTools({ ...options.tools, localFiles });
  const server = createMcpServer({ tools, caller: LOCAL_CALLER, logger, ...(options.version ? { version: options.version } : {}) });
  roots = clientRoots({ server, fallback: options.fallbackRoots, logger });

  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      await server.close().catch((err: unknown) => logger.warn({ err }, 'error while closing the MCP server'));
      resolveClosed();
    })();
    return closing;
  };
  const onEnd = (): void => {
    logger.info('stdin closed; stopping');
    void close();
  };
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  server.onclose = () => void close();

  const stdout = options.stdout ?? process.stdout;
  stdout.on('error', (err) => {
    logger.warn({ err: err.message }, 'stdout failed (the client went away?); stopping');
    void close();
  });
  const transport = new StdioServerTransport(stdin, stdout);
  transport.onerror = (err) => logger.warn({ err: err.message }, 'stdio transport error');
  await server.connect(transport);
  logger.info({ tools: tools.map((t) => t.name), fallbackRoots: options.fallbackRoots }, 'folio MCP server on stdio');
  return { server, closed, close };
}
