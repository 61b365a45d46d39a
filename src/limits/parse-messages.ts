/** The messages between the parse pool and its child processes (IPC with `serialization: 'advanced'`). */
import type { ErrorCode } from '../errors.ts';
import type { Progress } from '../parse/document.ts';
import type { LlmSettings, LlmUsage, ParseData } from '../parse/index.ts';
import type { ParseOptions } from '../parse/options.ts';

export interface ParseJobMessage {
  id: number;
  bytes: Uint8Array;
  filename: string;
  contentType?: string;
  sourceURL?: string;
  url?: string;
  statusCode?: number;
  options: ParseOptions;
  /** Epoch ms by which reading should end: the request's timeout clock starts when it is queued. */
  deadline: number;
  /** Epoch ms at which the request's timeout ends. */
  endsAt: number;
  /** The LLM provider (docs/llm.md). It holds the API key, so it travels here, in the IPC message, never in argv or the environment. */
  llm?: LlmSettings;
}

export type WorkerReply =
  /** Sent once, when every reader is loaded and the worker can take jobs. */
  | { id: 0; type: 'ready' }
  | { id: number; type: 'done'; data: ParseData }
  /** `error: null` is a bug, not the client's input: `detail` is for the log. */
  | { id: number; type: 'failed'; error: { code: ErrorCode; message: string } | null; detail?: string }
  | { id: number; type: 'progress'; progress: Progress }
  /** Tokens one LLM call of the job spent (sent before the job's `done`). */
  | { id: number; type: 'llm-usage'; usage: LlmUsage };
