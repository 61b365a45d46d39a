/**
 * A real redis-server for tests: started on a free loopback port with its files in a temp dir
 * (no persistence), stopped and removed by `stop()`. A missing redis-server fails the test with
 * what to do: scripts/setup.sh installs it (Debian `redis-server`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface TestRedis {
  /** redis://127.0.0.1:PORT/0 */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A loopback port free right now (nothing listens on it once this resolves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function redisServerPath(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const bin = found.stdout.trim();
  if (found.status !== 0 || bin === '') {
    throw new Error('redis-server is not installed: run scripts/setup.sh (it installs the Debian package redis-server), then run the tests again.');
  }
  return bin;
}

/**
 * `port`: a given one (a Redis started again where a stopped one was); default a free one.
 * `databases`: how many database numbers the server has (redis-server's default is 16).
 */
export async function startRedis(options: { port?: number; databases?: number } = {}): Promise<TestRedis> {
  const bin = redisServerPath();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-redis-'));
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--databases', String(options.databases ?? 16)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with code ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
