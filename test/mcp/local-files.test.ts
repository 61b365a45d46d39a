/**
 * The stdio server's confined file access on a real temp directory tree: paths inside the roots
 * are read; '..' escapes, absolute paths elsewhere, symlinks out, directories, FIFOs, devices
 * and files over the limit are refused with ServiceErrors that say what to do.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/errors.ts';
import { rootPaths } from '../../src/mcp/client-roots.ts';
import { createLocalFileReader, MAX_LOCAL_FILE_BYTES } from '../../src/mcp/local-files.ts';
import { corpusPath } from '../helpers/corpus.ts';

let base: string;
let root: string;
let second: string;
let outside: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-local-files-')));
  root = path.join(base, 'root');
  second = path.join(base, 'second');
  outside = path.join(base, 'outside');
  for (const d of [root, second, outside, path.join(root, 'sub')]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(root, 'note.html'), '<h1>Inside</h1>');
  fs.writeFileSync(path.join(root, 'sub', 'deep.html'), '<p>deep</p>');
  fs.writeFileSync(path.join(second, 'other.html'), '<p>second root</p>');
  fs.writeFileSync(path.join(outside, 'secret.html'), '<p>secret</p>');
  fs.symlinkSync(path.join(outside, 'secret.html'), path.join(root, 'link-out.html'));
  fs.symlinkSync(outside, path.join(root, 'dir-link-out'));
  fs.symlinkSync(path.join(root, 'note.html'), path.join(root, 'alias.htm'));
  fs.copyFileSync(corpusPath('html', 'markitdown', 'test_blog.html'), path.join(root, 'blog.html'));
  execFileSync('mkfifo', [path.join(root, 'pipe.html')]);
  // Sparse: 51 MB on paper, no disk used.
  const big = fs.openSync(path.join(root, 'big.pdf'), 'w');
  fs.ftruncateSync(big, MAX_LOCAL_FILE_BYTES + 1024 * 1024);
  fs.closeSync(big);
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

const reader = () => createLocalFileReader({ roots: async () => [root, second] });

async function refusal(filePath: string, roots: string[] = [root, second]): Promise<ServiceError> {
  const r = createLocalFileReader({ roots: async () => roots });
  const err = await r.read(filePath).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

describe('createLocalFileReader', () => {
  it('reads a file inside a root by absolute path, by relative path (against the first root) and by file:// URL', async () => {
    const byAbsolute = await reader().read(path.join(root, 'note.html'));
    expect(byAbsolute.bytes.toString()).toBe('<h1>Inside</h1>');
    expect(byAbsolute.filename).toBe('note.html');
    expect((await reader().read('sub/deep.html')).bytes.toString()).toBe('<p>deep</p>');
    expect((await reader().read('sub/../note.html')).bytes.toString()).toBe('<h1>Inside</h1>');
    expect((await reader().read(pathToFileURL(path.join(second, 'other.html')).href)).bytes.toString()).toBe('<p>second root</p>');
    const corpusCopy = await reader().read(path.join(root, 'blog.html'));
    expect(corpusCopy.bytes.equals(fs.readFileSync(corpusPath('html', 'markitdown', 'test_blog.html')))).toBe(true);
  });

  it('follows a symlink that stays inside the roots, and names the file after its target', async () => {
    const read = await reader().read(path.join(root, 'alias.htm'));
    expect(read.bytes.toString()).toBe('<h1>Inside</h1>');
    expect(read.filename).toBe('note.html');
  });

  it('refuses /etc/passwd, naming the allowed roots and how to add one', async () => {
    const err = await refusal('/etc/passwd');
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain(`'/etc/passwd' is outside the directories this folio server may read (${root}, ${second})`);
    expect(err.message).toContain('FOLIO_ALLOWED_DIRS');
    expect(err.message).toContain('roots');
  });

  it.each([
    ['../outside/secret.html'],
    ['sub/../../outside/secret.html'],
    ['link-out.html'],
    ['dir-link-out/secret.html'],
  ])('refuses %s (an escape by .. or by a symlink) as FORBIDDEN', async (p) => {
    const err = await refusal(p);
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain('is outside the directories');
  });

  it('does not tell whether a path outside the roots exists', async () => {
    const missing = await refusal(path.join(outside, 'nope.pdf'));
    expect(missing.code).toBe('FORBIDDEN');
  });

  it('a missing path inside a root is NOT_FOUND and says the path does not exist', async () => {
    const err = await refusal('missing.pdf');
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message).toContain(`'missing.pdf' does not exist (looked at ${path.join(root, 'missing.pdf')})`);
    expect(err.message).toContain(`relative paths resolve against ${root}`);
  });

  it('refuses a directory, a FIFO (without blocking on it) and a device', async () => {
    const dir = await refusal('sub');
    expect(dir.code).toBe('BAD_REQUEST');
    expect(dir.message).toContain("'sub' is a directory, not a regular file");
    const fifo = await refusal('pipe.html');
    expect(fifo.code).toBe('BAD_REQUEST');
    expect(fifo.message).toContain('a named pipe (FIFO)');
    const device = await refusal('/dev/zero', ['/dev']);
    expect(device.code).toBe('BAD_REQUEST');
    expect(device.message).toContain('is a device');
  });

  it('refuses a file over 50 MB before reading it', async () => {
    const err = await refusal('big.pdf');
    expect(err.code).toBe('FILE_TOO_LARGE');
    expect(err.message).toContain(`'big.pdf' is too large: ${MAX_LOCAL_FILE_BYTES + 1024 * 1024} bytes (51.0 MB), and parse accepts at most ${MAX_LOCAL_FILE_BYTES} bytes (50.0 MB)`);
  });

  it('with no usable root refuses everything, and says how to configure one', async () => {
    const err = await refusal(path.join(root, 'note.html'), [path.join(base, 'does-not-exist')]);
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toContain('no readable directory');
    expect(err.message).toContain('FOLIO_ALLOWED_DIRS');
  });

  it('asks for the roots on every read, so a change of roots applies at once', async () => {
    let roots = [root];
    const r = createLocalFileReader({ roots: async () => roots });
    expect((await r.read(path.join(root, 'note.html'))).filename).toBe('note.html');
    roots = [second];
    await expect(r.read(path.join(root, 'note.html'))).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a root that is itself reached through a symlink still works', async () => {
    const rootLink = path.join(base, 'root-link');
    fs.symlinkSync(root, rootLink);
    const r = createLocalFileReader({ roots: async () => [rootLink] });
    expect((await r.read(path.join(rootLink, 'note.html'))).bytes.toString()).toBe('<h1>Inside</h1>');
    expect((await r.read('note.html')).bytes.toString()).toBe('<h1>Inside</h1>');
  });

  it('refuses an empty path', async () => {
    const err = await refusal('  ');
    expect(err.code).toBe('BAD_REQUEST');
  });
});

describe('rootPaths (client roots → directories)', () => {
  it('keeps file:// roots as paths and skips other schemes and remote file URLs', () => {
    expect(rootPaths(['file:///home/me/project', 'https://example.com/repo', 'file://server/share', 'file:///tmp/a%20b'])).toEqual(['/home/me/project', '/tmp/a b']);
  });
});
