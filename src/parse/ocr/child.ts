/**
 * The two external programs of OCR, run as a pipeline: `pdftoppm` (poppler) renders one page to
 * a PGM on its stdout, which this process relays into `tesseract`'s stdin. Relaying (rather than
 * handing one child's pipe to the other) keeps both children tied to this thread: when it aborts,
 * both are killed; when the thread itself is terminated (the parse pool stopping a worker past its
 * timeout), its pipe ends close, so neither child can outlive the page it was rendering or reading.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** A program that ended badly: its name, exit status and the tail of what it printed on stderr. */
export class ChildFailure extends Error {
  readonly program: string;
  readonly exitCode: number | null;
  readonly stderr: string;
  /** The program could not be started at all (not installed): spawn's ENOENT. */
  readonly missing: boolean;

  constructor(program: string, exitCode: number | null, stderr: string, missing = false) {
    super(missing ? `${program} is not installed` : `${program} exited with ${exitCode ?? 'a signal'}: ${stderr.trim().slice(-300)}`);
    this.name = 'ChildFailure';
    this.program = program;
    this.exitCode = exitCode;
    this.stderr = stderr;
    this.missing = missing;
  }
}

export interface Command {
  /** The program's name as reported in errors (`tesseract`, `pdftoppm`). */
  program: string;
  file: string;
  args: readonly string[];
}

interface Ended {
  code: number | null;
  stderr: string;
}

/** At most this much of a child's stderr is kept (tesseract prints a line per warning). */
const STDERR_LIMIT = 8 * 1024;

function watch(child: ChildProcess, program: string): Promise<Ended> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      if (stderr.length < STDERR_LIMIT) stderr += chunk;
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ENOENT' ? new ChildFailure(program, null, '', true) : err);
    });
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

/**
 * Ends a child now. Its pipes are destroyed too: a child's 'close' waits for its stdout to be
 * read to the end, and a producer's stdout unpiped from a dead consumer would never be.
 */
function kill(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child.stdin?.destroy();
  child.stdout?.destroy();
}

/**
 * Runs `first | second` and resolves with `second`'s stdout. Rejects with a ChildFailure when
 * either program fails, and with the signal's reason when `signal` aborts (both killed first).
 */
export async function runPipeline(first: Command, second: Command, signal: AbortSignal): Promise<string> {
  return (await pipeline(first, second, signal, false)).output;
}

/** At most this much of `first`'s output is kept by runPipelineKeepingInput (a 4200 px square PGM is 17.6 MB). */
const MAX_KEPT_INPUT = 24 * 1024 * 1024;

/**
 * runPipeline, also keeping what `first` printed (the rendered page, for the type's weight:
 * weight.ts); `input` is undefined when it was larger than MAX_KEPT_INPUT.
 */
export async function runPipelineKeepingInput(first: Command, second: Command, signal: AbortSignal): Promise<{ output: string; input?: Buffer }> {
  return pipeline(first, second, signal, true);
}

async function pipeline(first: Command, second: Command, signal: AbortSignal, keepInput: boolean): Promise<{ output: string; input?: Buffer }> {
  signal.throwIfAborted();
  const producer = spawn(first.file, first.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const consumer = spawn(second.file, second.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const children = [producer, consumer];
  const onAbort = () => children.forEach(kill);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const chunks: Buffer[] = [];
    consumer.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The consumer may stop reading early (it failed): its EPIPE is not the error to report.
    consumer.stdin?.on('error', () => undefined);
    const kept: Buffer[] = [];
    let keptBytes = 0;
    if (keepInput) {
      producer.stdout?.on('data', (chunk: Buffer) => {
        keptBytes += chunk.length;
        if (keptBytes <= MAX_KEPT_INPUT) kept.push(chunk);
      });
    }
    producer.stdout?.pipe(consumer.stdin as NodeJS.WritableStream);
    const producerEnded = watch(producer, first.program);
    const consumerEnded = watch(consumer, second.program);
    // A consumer that ended (failed, or did not start) reads no more: the producer must not wait
    // on a full pipe forever. A producer that ended closes the consumer's input by itself.
    consumerEnded.then(
      () => kill(producer),
      () => kill(producer),
    );
    producerEnded.catch(() => kill(consumer));
    const [made, read] = await Promise.all([producerEnded, consumerEnded]);
    signal.throwIfAborted();
    if (made.code !== 0) throw new ChildFailure(first.program, made.code, made.stderr);
    if (read.code !== 0) throw new ChildFailure(second.program, read.code, read.stderr);
    const output = Buffer.concat(chunks).toString('utf8');
    return keepInput && keptBytes <= MAX_KEPT_INPUT ? { output, input: Buffer.concat(kept) } : { output };
  } catch (err) {
    children.forEach(kill);
    signal.throwIfAborted();
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Runs one program to its end and resolves with its stdout (for `--version`, `--list-langs`). */
export async function runOnce(command: Command): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command.file, command.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    stdout += chunk;
  });
  const ended = await watch(child, command.program);
  return { code: ended.code, stdout, stderr: ended.stderr };
}
