/**
 * The operator's install, for real (docs/operations.md "Production install"): the tracked tree
 * copied into a temp dir, `npm ci --omit=dev --offline` (from the npm cache that `npm ci` fills;
 * no registry), which compiles dist/ in `prepare` with the TypeScript of `dependencies`; then
 * `npm start` serves /health and /ready, and the `folio` bin answers without rebuilding.
 *
 * better-sqlite3's native module comes the way an operator with a network gets it: as a prebuilt
 * binary that its `install` script (prebuild-install) unpacks, here from a local prebuild made of
 * the module the checkout's own `npm ci` compiled (the same package version, Node ABI and
 * machine). Compiling it again from source cost ~100 s of one core under the suite's load (75-80%
 * of this test) and proves nothing the checkout's `npm ci` has not: the same sources, toolchain
 * and setup script. Everything of folio's own install still runs: setup.sh, `prepare` (dist/ with
 * the TypeScript of `dependencies`), the production-only tree, the bin and `npm start`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from '../http/client.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-prod-install-'));
const app = path.join(work, 'folio');
const dataDir = path.join(work, 'data');
let server: ChildProcess | undefined;

/**
 * A prebuild-install tarball (`{name}-v{version}-node-v{abi}-{platform}-{arch}.tar.gz` holding
 * build/Release/better_sqlite3.node) of the checkout's compiled module, in `dir`.
 */
function localSqlitePrebuild(dir: string): string {
  const pkgDir = path.join(root, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string };
  const binary = path.join('build', 'Release', 'better_sqlite3.node');
  expect(fs.existsSync(path.join(pkgDir, binary)), 'the checkout\'s npm ci compiled better-sqlite3').toBe(true);
  fs.mkdirSync(dir, { recursive: true });
  const tarball = path.join(dir, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
  const tar = spawnSync('tar', ['-czf', tarball, '-C', pkgDir, binary], { encoding: 'utf8' });
  expect(tar.status, tar.stderr).toBe(0);
  return dir;
}

/** The environment of an operator's shell: none of the npm_* variables of the test runner's own `npm test`. */
function operatorEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, ...extra };
}

/** Whether any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

afterAll(async () => {
  // `npm start` runs folio under npm and a shell, in a process group of its own: a SIGTERM to npm
  // alone ends npm and leaves the server running. The whole group is stopped, and awaited.
  const pgid = server?.pid;
  if (pgid !== undefined && groupAlive(pgid)) {
    process.kill(-pgid, 'SIGTERM');
    const deadline = Date.now() + 30_000;
    while (groupAlive(pgid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  }
  fs.rmSync(work, { recursive: true, force: true });
});

describe('production install', () => {
  it('npm ci --omit=dev builds dist/ without devDependencies; npm start serves /health; the folio bin runs without a rebuild', { timeout: 900_000 }, async () => {
    // What a clone holds: tracked (and new, not ignored) files, no node_modules, no dist.
    const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
    expect(files.status).toBe(0);
    for (const rel of files.stdout.split('\0').filter(Boolean)) {
      if (rel.startsWith('node_modules') || rel.includes('/node_modules/')) continue;
      const from = path.join(root, rel);
      if (!fs.existsSync(from) || !fs.statSync(from).isFile()) continue;
      fs.mkdirSync(path.dirname(path.join(app, rel)), { recursive: true });
      fs.copyFileSync(from, path.join(app, rel));
    }
    expect(fs.existsSync(path.join(app, 'dist'))).toBe(false);

    const prebuilds = localSqlitePrebuild(path.join(work, 'prebuilds'));
    const ci = spawnSync('npm', ['ci', '--omit=dev', '--offline', '--no-audit', '--no-fund', '--foreground-scripts'], {
      cwd: app,
      env: operatorEnv({ npm_config_better_sqlite3_local_prebuilds: prebuilds }),
      encoding: 'utf8',
      timeout: 840_000,
    });
    expect(ci.status, `${ci.stdout}\n${ci.stderr}`).toBe(0);
    // The module came from the prebuild, unpacked and loaded by its install script, not compiled.
    expect(ci.stdout + ci.stderr).not.toContain('gyp info ok');
    expect(fs.existsSync(path.join(app, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
    // Production only: the test tools and type packages are absent, the compiled CLI is there.
    expect(fs.existsSync(path.join(app, 'node_modules', 'vitest'))).toBe(false);
    expect(fs.existsSync(path.join(app, 'node_modules', '@types', 'node'))).toBe(false);
    expect(fs.existsSync(path.join(app, 'dist', 'src', 'main.js'))).toBe(true);
    expect(fs.existsSync(path.join(app, 'dist', 'src', 'limits', 'parse-worker.js'))).toBe(true);

    // The bin: plain node on dist/, no rebuild (dist/ is newer than every source after prepare).
    const stampBefore = fs.statSync(path.join(app, 'dist', '.tsbuildinfo')).mtimeMs;
    const started = Date.now();
    const help = spawnSync(process.execPath, [path.join(app, 'bin', 'folio.js'), 'help'], { cwd: app, env: operatorEnv(), encoding: 'utf8' });
    const helpMs = Date.now() - started;
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: folio <command>');
    expect(help.stderr).toBe('');
    expect(fs.statSync(path.join(app, 'dist', '.tsbuildinfo')).mtimeMs).toBe(stampBefore);
    // A rebuild takes several seconds; a start on dist/ well under them even on a loaded machine.
    expect(helpMs).toBeLessThan(5_000);

    const child = spawn('npm', ['start'], { cwd: app, env: operatorEnv({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', FOLIO_MAX_CONCURRENT_PARSES: '1' }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    server = child;
    let seen = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL logged within 120 s: ${seen}`)), 120_000);
      const onData = (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        const m = /"url":"(http:\/\/[^"]+)"/.exec(seen);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${seen}`)));
    });
    expect((await request(`${url}/health`)).json).toEqual({ ok: true });
    const ready = await request(`${url}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.json).toMatchObject({ ready: true });
  });
});
