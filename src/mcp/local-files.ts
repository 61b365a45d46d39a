/**
 * The stdio server's file access (issue 5 §6): `parse{filePath}` reads a path on the user's own
 * machine, confined to the allowed roots — the client's MCP roots (MCP spec "Roots"), else
 * FOLIO_ALLOWED_DIRS, else the working directory; the caller decides which and hands them in.
 *
 * Confinement is by real path: the roots and the file are resolved with realpath, so `..`
 * segments and symlinks that lead out of every root are refused alike. The file is then opened
 * once, without following a final symlink and without blocking on a FIFO, and everything after
 * that — the regular-file check, the size check, the read — uses that one handle, so the file
 * cannot be swapped between the check and the read. The opened handle's own path is checked
 * against the roots again (a directory swapped for a symlink between realpath and open).
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceError } from '../errors.ts';
import type { LocalFileReader, UploadedFile } from '../uploads/types.ts';

/** interface-v2 "Limits": upload size 50 MB per request; a local file gets the same limit. */
export const MAX_LOCAL_FILE_BYTES = 50 * 1024 * 1024;

export interface LocalFileReaderOptions {
  /** The allowed roots (absolute directories), asked for on every read: client roots change. */
  roots: () => Promise<string[]>;
  /** Defaults to MAX_LOCAL_FILE_BYTES. */
  maxBytes?: number;
}

const HOW_TO_ALLOW =
  'To allow another directory, add it to your MCP client\'s roots (when the client sends roots), or set FOLIO_ALLOWED_DIRS ' +
  `in the folio server's environment (absolute directories separated by '${path.delimiter}').`;

function errnoCode(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `~/x`, `file:///x` and relative paths (against the first root) become absolute. */
function absolutePath(filePath: string, firstRoot: string): string {
  if (filePath.startsWith('file://')) {
    try {
      return fileURLToPath(filePath);
    } catch {
      throw new ServiceError('BAD_REQUEST', `'${filePath}' is not a valid file:// URL. Pass a local path such as /home/me/report.pdf.`);
    }
  }
  if (filePath === '~' || filePath.startsWith(`~${path.sep}`) || filePath.startsWith('~/')) {
    return path.join(os.homedir(), filePath.slice(1));
  }
  return path.resolve(firstRoot, filePath);
}

interface Roots {
  /** As given (absolute), for messages and the lexical not-found check. */
  given: string[];
  /** Their real paths; roots that do not exist are dropped. */
  real: string[];
}

async function resolveRoots(list: string[]): Promise<Roots> {
  const given = list.map((r) => path.resolve(r));
  const real = (await Promise.all(given.map((r) => fs.realpath(r).catch(() => undefined)))).filter((r): r is string => r !== undefined);
  return { given, real };
}

function outsideRoots(filePath: string, roots: Roots): ServiceError {
  return new ServiceError(
    'FORBIDDEN',
    `'${filePath}' is outside the directories this folio server may read (${roots.given.join(', ')}); ` +
      `symlinks and '..' are followed before this check. Move or copy the file into one of them, or pass a path inside one. ${HOW_TO_ALLOW}`,
  );
}

/** Linux names an open descriptor's file in /proc; elsewhere the path is re-checked by inode. */
async function handlePath(fd: number): Promise<string | undefined> {
  try {
    return await fs.readlink(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

async function readAll(handle: fs.FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === size ? buffer : buffer.subarray(0, filled);
}

export function createLocalFileReader(options: LocalFileReaderOptions): LocalFileReader {
  const maxBytes = options.maxBytes ?? MAX_LOCAL_FILE_BYTES;

  return {
    async read(filePath: string): Promise<UploadedFile> {
      if (filePath.trim() === '' || filePath.includes('\0')) {
        throw new ServiceError('BAD_REQUEST', '`filePath` must be a non-empty path to a file, e.g. /home/me/report.pdf.');
      }
      const roots = await resolveRoots(await options.roots());
      const firstRoot = roots.given[0];
      if (firstRoot === undefined || roots.real.length === 0) {
        throw new ServiceError('FORBIDDEN', `This folio server has no readable directory to read files from (roots: ${roots.given.join(', ') || 'none'}). ${HOW_TO_ALLOW}`);
      }
      const requested = absolutePath(filePath, firstRoot);

      let real: string;
      try {
        real = await fs.realpath(requested);
      } catch (err) {
        const code = errnoCode(err);
        // A missing path outside the roots is refused as outside: its absence is not told.
        const lexicallyInside = [...roots.given, ...roots.real].some((r) => isInside(r, requested));
        if (!lexicallyInside) throw outsideRoots(filePath, roots);
        if (code === 'ENOENT' || code === 'ENOTDIR') {
          throw new ServiceError(
            'NOT_FOUND',
            `'${filePath}' does not exist${requested !== filePath ? ` (looked at ${requested})` : ''}. Check the path; relative paths resolve against ${firstRoot}.`,
          );
        }
        if (code === 'EACCES' || code === 'EPERM') {
          throw new ServiceError('FORBIDDEN', `'${filePath}' cannot be read: the operating system denied access (${code}).`);
        }
        if (code === 'ELOOP') throw new ServiceError('BAD_REQUEST', `'${filePath}' is a symlink loop; pass the path of a real file.`);
        throw new ServiceError('BAD_REQUEST', `'${filePath}' cannot be resolved (${code || 'unknown reason'}).`);
      }
      if (!roots.real.some((r) => isInside(r, real))) throw outsideRoots(filePath, roots);

      let handle: fs.FileHandle;
      try {
        // O_NOFOLLOW: a final component swapped for a symlink after realpath fails (ELOOP).
        // O_NONBLOCK: opening a FIFO does not wait for a writer; it is refused below.
        handle = await fs.open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
      } catch (err) {
        const code = errnoCode(err);
        if (code === 'ENOENT') throw new ServiceError('NOT_FOUND', `'${filePath}' does not exist (it disappeared while being opened).`);
        if (code === 'EACCES' || code === 'EPERM') {
          throw new ServiceError('FORBIDDEN', `'${filePath}' cannot be read: the operating system denied access (${code}).`);
        }
        if (code === 'ELOOP') throw outsideRoots(filePath, roots);
        if (code === 'EISDIR') throw notAFile(filePath, 'a directory');
        throw new ServiceError('BAD_REQUEST', `'${filePath}' cannot be opened (${code || 'unknown reason'}).`);
      }
      try {
        const opened = await handlePath(handle.fd);
        if (opened !== undefined && !roots.real.some((r) => isInside(r, opened))) throw outsideRoots(filePath, roots);
        const stat = await handle.stat();
        if (opened === undefined) {
          const again = await fs.stat(real).catch(() => undefined);
          if (!again || again.ino !== stat.ino || again.dev !== stat.dev) throw outsideRoots(filePath, roots);
        }
        if (stat.isDirectory()) throw notAFile(filePath, 'a directory');
        if (!stat.isFile()) throw notAFile(filePath, kindOf(stat));
        if (stat.size > maxBytes) {
          throw new ServiceError(
            'FILE_TOO_LARGE',
            `'${filePath}' is too large: ${stat.size} bytes (${megabytes(stat.size)}), and parse accepts at most ${maxBytes} bytes (${megabytes(maxBytes)}). Split the document or parse a smaller export of it.`,
          );
        }
        const bytes = await readAll(handle, stat.size);
        return { bytes, filename: path.basename(real) };
      } finally {
        await handle.close();
      }
    },
  };
}

function kindOf(stat: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function notAFile(filePath: string, what: string): ServiceError {
  return new ServiceError('BAD_REQUEST', `'${filePath}' is ${what}, not a regular file. Pass the path of one document (e.g. report.pdf).`);
}
