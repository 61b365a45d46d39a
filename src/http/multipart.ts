/**
 * The parse request body (interface-v2 "Parse request parts"): `multipart/form-data` with exactly
 * one `file` part and at most one `options` part, streamed with busboy under hard limits. The
 * file goes to a spool file, never into memory while it arrives. The first limit crossed ends the
 * upload at once: the request is left unread and the caller answers and closes the connection.
 */
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { ServiceError } from '../errors.ts';
import type { UploadSpool } from './upload-spool.ts';

export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
export const MAX_OPTIONS_BYTES = 1024 * 1024;
/** Parts in one request: exactly this many are accepted, one more is refused. */
export const MAX_PARTS = 10;
/**
 * All text parts together (the `options` part, and fields clients add that are ignored), in
 * bytes: checked as the bytes arrive, so a chunked body cannot stream an endless ignored field.
 */
export const MAX_TEXT_PARTS_BYTES = MAX_OPTIONS_BYTES + 64 * 1024;
/**
 * Boundaries and part headers on top of the text parts when the bytes that are not the file are
 * counted as they arrive (10 part header blocks of busboy's 16 KB each, and the parser's buffers).
 */
const FRAMING_ALLOWANCE = MAX_PARTS * 16 * 1024 + 256 * 1024;
export const MAX_PART_NAME_BYTES = 100;
/** Header lines in one part; busboy also caps a part's header block at 16 KB. */
export const MAX_PART_HEADER_PAIRS = 16;
/** Room for boundaries, part headers and the options part when judging a Content-Length. */
const ENVELOPE_ALLOWANCE = MAX_OPTIONS_BYTES + 64 * 1024;

export const EXPECTED_FORM =
  "Send multipart/form-data with a 'file' part (the document, with a filename) and an optional 'options' part (a JSON object).";

export interface ReceivedUpload<T> {
  /** The spool file holding the bytes; absent when they were received into memory (`bytes`). */
  path?: string;
  /** The bytes, when `inMemory` chose memory for them (never written to the spool). */
  bytes?: Buffer;
  size: number;
  /** The client's file name (base name only). */
  filename: string;
  /** The part's Content-Type, when it sent one. */
  contentType?: string;
  /** The `options` part as `readOptions` returned it, when there was one. */
  options?: T;
}

export interface ReceiveOptions<T> {
  spool: UploadSpool;
  /**
   * Reads the `options` part as soon as it has arrived; a ServiceError it throws ends the
   * upload at once (bad options are answered before a large file is received).
   */
  readOptions: (text: string) => T;
  /**
   * Asked when the file part starts, with the options read so far (undefined when the file comes
   * first): true receives the file into memory instead of a spool file (Zero Data Retention,
   * docs/zdr.md). The size limit and the upload slots bound the memory as they bound the spool.
   */
  inMemory?: (options: T | undefined) => boolean;
}

export function fileTooLarge(): ServiceError {
  return new ServiceError(
    'FILE_TOO_LARGE',
    `The file exceeds the 50 MB (${MAX_UPLOAD_BYTES} bytes) upload limit. Split the document or reduce its size and upload it again.`,
  );
}

function badRequest(message: string): ServiceError {
  return new ServiceError('BAD_REQUEST', message);
}

function textPartsTooLarge(): ServiceError {
  return new ServiceError(
    'PAYLOAD_TOO_LARGE',
    `The request's text parts total more than ${MAX_TEXT_PARTS_BYTES} bytes (the limit for all text parts together, the 'options' part included). Send only the 'file' part and, if needed, one 'options' part.`,
  );
}

function tooManyParts(): ServiceError {
  return badRequest(`The request has more than ${MAX_PARTS} multipart parts. ${EXPECTED_FORM}`);
}

/** Refusals decided from the request head alone, before any body byte is read. */
function checkHead(req: IncomingMessage): void {
  const type = req.headers['content-type'];
  const mime = type?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mime !== 'multipart/form-data') {
    const got = type ? `'${mime}'` : 'no Content-Type';
    throw badRequest(`POST /v2/parse expects a multipart/form-data body, but the request has ${got}. ${EXPECTED_FORM}`);
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES + ENVELOPE_ALLOWANCE) throw fileTooLarge();
}

/**
 * Reads the multipart body into the spool. Rejects with a ServiceError for anything the client
 * must fix; on rejection the request may be partly unread (`req.complete` is false).
 */
export function receiveUpload<T>(req: IncomingMessage, { spool, readOptions, inMemory }: ReceiveOptions<T>): Promise<ReceivedUpload<T>> {
  checkHead(req);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: {
        // busboy signals the limit when a file *reaches* it: one more byte allows exactly 50 MB.
        fileSize: MAX_UPLOAD_BYTES + 1,
        fieldSize: MAX_OPTIONS_BYTES,
        // busboy signals the limit when the count *reaches* it: one more allows exactly MAX_PARTS
        // (the parts are also counted below as they start, so an 11th file part is never read).
        parts: MAX_PARTS + 1,
        headerPairs: MAX_PART_HEADER_PAIRS,
      },
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'unreadable Content-Type';
    throw badRequest(`Invalid multipart/form-data request: ${reason} (the Content-Type header needs a boundary parameter). ${EXPECTED_FORM}`);
  }

  return new Promise<ReceivedUpload<T>>((resolve, reject) => {
    let settled = false;
    let file: { path?: string; memory?: Buffer[]; filename: string; contentType?: string; written: Promise<number> } | undefined;
    let optionsSeen = false;
    let options: T | undefined;
    let parts = 0;
    /** Body bytes handed to the parser, and bytes of the 'file' part it handed back. */
    let bodyBytes = 0;
    let fileBytes = 0;
    /** Sizes of the text parts that have arrived in full. */
    let textBytes = 0;

    const countPart = (): boolean => {
      parts += 1;
      if (parts > MAX_PARTS) {
        fail(tooManyParts());
        return false;
      }
      return true;
    };

    const countText = (size: number): boolean => {
      textBytes += size;
      if (textBytes > MAX_TEXT_PARTS_BYTES) {
        fail(textPartsTooLarge());
        return false;
      }
      return true;
    };

    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      // Stop reading: the rest of the body stays on the wire and the connection is closed.
      req.unpipe(parser);
      req.pause();
      // Not synchronously: busboy emits from inside its own write and touches its state after.
      process.nextTick(() => parser.destroy());
      reject(err);
    };

    const checkName = (name: string | undefined): string | undefined => {
      if (name === undefined || name === '') {
        fail(badRequest(`A multipart part has no name. ${EXPECTED_FORM}`));
        return undefined;
      }
      if (Buffer.byteLength(name) > MAX_PART_NAME_BYTES) {
        fail(badRequest(`A multipart part name is longer than ${MAX_PART_NAME_BYTES} bytes. ${EXPECTED_FORM}`));
        return undefined;
      }
      return name;
    };

    const acceptOptions = (text: string): void => {
      if (optionsSeen) {
        fail(badRequest("The request has more than one 'options' part; send one JSON object."));
        return;
      }
      optionsSeen = true;
      try {
        options = readOptions(text);
      } catch (err) {
        fail(err);
      }
    };

    parser.on('file', (rawName: string, stream: Readable, info: busboy.FileInfo) => {
      // Once the upload has failed, busboy may still destroy this stream with an error.
      stream.on('error', () => {});
      if (settled || !countPart()) {
        stream.resume();
        return;
      }
      const name = checkName(rawName);
      if (name === undefined || settled) {
        stream.resume();
        return;
      }
      if (name === 'options') {
        // Sent as a file part (with a filename or as application/octet-stream): read it, bounded.
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_OPTIONS_BYTES) {
            fail(badRequest(`The 'options' part is larger than ${MAX_OPTIONS_BYTES} bytes.`));
            return;
          }
          chunks.push(chunk);
        });
        stream.on('end', () => {
          if (!settled && countText(size)) acceptOptions(Buffer.concat(chunks).toString('utf8'));
        });
        return;
      }
      if (name !== 'file') {
        stream.resume();
        fail(badRequest(`Unexpected file part '${name}'. ${EXPECTED_FORM}`));
        return;
      }
      if (file) {
        stream.resume();
        fail(badRequest(`The request has more than one 'file' part; parse takes exactly one file per request.`));
        return;
      }
      stream.once('limit', () => fail(fileTooLarge()));
      stream.on('data', (chunk: Buffer) => {
        fileBytes += chunk.length;
      });
      const fileInfo = {
        filename: info.filename ?? 'upload',
        ...(info.mimeType && info.mimeType !== 'application/octet-stream' ? { contentType: info.mimeType } : {}),
      };
      if (inMemory?.(options) === true) {
        const memory: Buffer[] = [];
        const written = new Promise<number>((resolveSize, rejectSize) => {
          stream.on('data', (chunk: Buffer) => memory.push(chunk));
          stream.once('end', () => resolveSize(memory.reduce((n, c) => n + c.length, 0)));
          stream.once('error', rejectSize);
        });
        written.catch(() => undefined);
        file = { ...fileInfo, memory, written };
        return;
      }
      const target = spool.create();
      const written = pipeline(stream, target.stream).then(() => target.stream.bytesWritten);
      // A failure here is reported through `fail` by whoever caused it; keep it from going unhandled.
      written.catch(() => undefined);
      file = { ...fileInfo, path: target.path, written };
    });

    parser.on('field', (rawName: string, value: string, info: busboy.FieldInfo) => {
      if (settled || !countPart()) return;
      const name = checkName(rawName);
      if (name === undefined || settled) return;
      if (!countText(Buffer.byteLength(value))) return;
      if (name === 'options') {
        if (info.valueTruncated) {
          fail(badRequest(`The 'options' part is larger than ${MAX_OPTIONS_BYTES} bytes.`));
          return;
        }
        acceptOptions(value);
        return;
      }
      if (name === 'file') {
        fail(badRequest("The 'file' part has no filename. Send the document as a file part with a filename (its extension names the type, e.g. report.pdf)."));
      }
      // Other text fields are ignored, as clients may add their own; one cut at the field size
      // limit was larger than every text part together may be.
      if (info.valueTruncated) fail(textPartsTooLarge());
    });

    parser.on('partsLimit', () => fail(tooManyParts()));

    parser.on('error', (err: unknown) => {
      const reason = err instanceof Error ? err.message : 'unreadable body';
      fail(badRequest(`Invalid multipart/form-data body: ${reason}. Check the boundary and that the body is complete. ${EXPECTED_FORM}`));
    });

    parser.on('finish', () => {
      if (settled) return;
      if (!file) {
        fail(badRequest(`The request has no 'file' part. ${EXPECTED_FORM}`));
        return;
      }
      const received = file;
      received.written.then(
        (size) => {
          if (settled) return;
          settled = true;
          resolve({
            ...(received.memory ? { bytes: Buffer.concat(received.memory) } : { path: received.path }),
            size,
            filename: received.filename,
            ...(received.contentType ? { contentType: received.contentType } : {}),
            ...(options !== undefined ? { options } : {}),
          });
        },
        (err: unknown) => fail(err),
      );
    });

    req.on('close', () => {
      if (!req.complete) fail(new ClientAbortedError());
    });
    req.on('error', (err) => fail(err));
    // A text field is only seen once it has ended (and busboy reads on past its size limit):
    // the bytes that are not the file are counted as they arrive, so an endless field under
    // chunked encoding is refused once it is past what the text parts and framing can take.
    req.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.length;
      if (!settled && bodyBytes - fileBytes > MAX_TEXT_PARTS_BYTES + FRAMING_ALLOWANCE) fail(textPartsTooLarge());
    });

    req.pipe(parser);
  });
}

/** The client went away before the upload finished: nobody is left to answer. */
export class ClientAbortedError extends ServiceError {
  constructor() {
    super('BAD_REQUEST', 'The client closed the connection before the upload finished.');
  }
}
