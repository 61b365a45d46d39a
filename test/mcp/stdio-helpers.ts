/**
 * Spawning `folio mcp` as a real child process (`node --import tsx src/main.ts mcp`) and talking
 * to it with the MCP SDK client over the SDK's StdioClientTransport, or over a transport that
 * also records every raw line the server wrote to stdout.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MCP_COMMAND = { command: process.execPath, args: ['--import', 'tsx', 'src/main.ts', 'mcp'] };

export interface SpawnedServer {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

export async function connectStdio(env: Record<string, string>, options: ClientOptions = {}, setup?: (client: Client) => void): Promise<SpawnedServer> {
  const transport = new StdioClientTransport({ ...MCP_COMMAND, cwd: REPO_ROOT, env: { ...getDefaultEnvironment(), ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'folio-test', version: '1.0.0' }, options);
  setup?.(client);
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/**
 * A client transport over a spawned server that keeps every raw stdout line: a line that is not
 * a JSON-RPC message is recorded in `stray` (and would break a real client).
 */
export class RecordingStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly lines: string[] = [];
  readonly stray: string[] = [];
  stderrText = '';
  child?: ChildProcessWithoutNullStreams;
  exited?: Promise<number | null>;
  private pending = '';

  constructor(
    private readonly env: Record<string, string>,
    /** Node options placed before the entry point (e.g. another `--import`). */
    private readonly nodeArgs: string[] = [],
  ) {}

  async start(): Promise<void> {
    const child = spawn(MCP_COMMAND.command, [...this.nodeArgs, ...MCP_COMMAND.args], { cwd: REPO_ROOT, env: { ...getDefaultEnvironment(), ...this.env } });
    this.child = child;
    this.exited = new Promise((resolve) => child.on('close', (code) => resolve(code)));
    child.stderr.on('data', (d: Buffer) => (this.stderrText += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      this.pending += d.toString('utf8');
      let nl: number;
      while ((nl = this.pending.indexOf('\n')) !== -1) {
        const line = this.pending.slice(0, nl).replace(/\r$/, '');
        this.pending = this.pending.slice(nl + 1);
        this.lines.push(line);
        let message: JSONRPCMessage;
        try {
          message = JSONRPCMessageSchema.parse(JSON.parse(line));
        } catch {
          this.stray.push(line);
          continue;
        }
        this.onmessage?.(message);
      }
    });
    child.on('close', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child?.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Ends stdin: the server should stop by itself. */
  async close(): Promise<void> {
    this.child?.stdin.end();
  }
}

export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

export async function callParse(client: Client, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name: 'parse', arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
}
