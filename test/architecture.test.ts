/**
 * DESIGN.md "Dependency direction": parse ← tools ← mcp; parse ← http; auth and .well-known
 * depend on config (and the store), never on the doors; only config.ts reads process.env.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(abs, f));
}

/** Repo-relative targets of a file's relative imports. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2] ?? '');
  return specs.map((s) => path.relative(root, path.resolve(path.dirname(file), s)));
}

function violations(dir: string, forbidden: string[]): string[] {
  return sourceFiles(dir).flatMap((file) =>
    importsOf(file)
      .filter((target) => forbidden.some((f) => target === f || target.startsWith(`${f}/`)))
      .map((target) => `${path.relative(root, file)} → ${target}`),
  );
}

describe('architecture', () => {
  it('the parse core imports nothing from the doors, auth, the store or the limits', () => {
    expect(violations('src/parse', ['src/http', 'src/mcp', 'src/cli', 'src/store', 'src/limits', 'auth', 'tools', '.well-known', 'src/main.ts'])).toEqual([]);
  });

  it('tools depend on the core, not on the transports', () => {
    expect(violations('tools', ['src/http', 'src/mcp', 'src/cli'])).toEqual([]);
  });

  it('the web operations (scrape, search, map, crawl) and uploads do not depend on the doors or the tools', () => {
    const doors = ['src/http', 'src/mcp', 'src/cli', 'tools'];
    expect([...violations('src/web', doors), ...violations('src/uploads', doors)]).toEqual([]);
  });

  it('the PostgreSQL store (src/store/postgres) is reached through its entry file and depends on neither the doors nor the operations', () => {
    const outside = ['src', 'auth', 'tools', 'test', 'bench']
      .flatMap(sourceFiles)
      .filter((f) => !path.relative(root, f).startsWith('src/store/postgres/'))
      .flatMap((file) =>
        importsOf(file)
          .filter((t) => t.startsWith('src/store/postgres/') && t !== 'src/store/postgres/index.ts')
          .map((t) => `${path.relative(root, file)} → ${t}`),
      );
    expect(outside).toEqual([]);
    expect(violations('src/store/postgres', ['src/http', 'src/mcp', 'src/cli', 'tools', 'src/web', 'src/uploads', 'src/accounts', 'src/limits', 'src/parse'])).toEqual([]);
  });

  it('the blob store (src/blobs) is reached through its entry file and depends only on the storage interface, config types and errors', () => {
    const inward = ['src', 'auth', 'tools', 'test', 'bench']
      .flatMap(sourceFiles)
      .filter((f) => !path.relative(root, f).startsWith('src/blobs/'))
      .flatMap((file) => importsOf(file).filter((t) => t.startsWith('src/blobs/') && t !== 'src/blobs/index.ts').map((t) => `${path.relative(root, file)} → ${t}`));
    expect(inward).toEqual([]);
    expect(violations('src/blobs', ['src/http', 'src/mcp', 'src/cli', 'tools', 'src/store', 'src/web', 'src/browser', 'src/parse', 'src/limits', 'src/accounts', 'auth'])).toEqual([]);
  });

  it('webhooks (src/web/webhooks) are reached through their entry file and depend on neither the doors nor the job machinery', () => {
    const outside = ['src', 'auth', 'tools', 'test', 'bench']
      .flatMap(sourceFiles)
      .filter((f) => !path.relative(root, f).startsWith('src/web/webhooks/'))
      .flatMap((file) =>
        importsOf(file)
          .filter((t) => t.startsWith('src/web/webhooks/') && t !== 'src/web/webhooks/index.ts')
          .map((t) => `${path.relative(root, file)} → ${t}`),
      );
    expect(outside).toEqual([]);
    expect(violations('src/web/webhooks', ['src/http', 'src/mcp', 'src/cli', 'tools', 'src/web/crawl'])).toEqual([]);
  });

  it('the browser (src/browser) is reached through its entry file and imports no door, store or parse core', () => {
    const entry = 'src/browser/index.ts';
    const inward = ['src', 'auth', 'tools', 'test', 'bench']
      .flatMap(sourceFiles)
      .filter((file) => !path.relative(root, file).startsWith('src/browser/'))
      .flatMap((file) => importsOf(file).filter((t) => t.startsWith('src/browser/') && t !== entry).map((t) => `${path.relative(root, file)} → ${t}`));
    expect(inward).toEqual([]);
    expect(violations('src/browser', ['src/http', 'src/mcp', 'src/cli', 'tools', 'src/store', 'src/parse', 'src/limits', 'src/web/crawl', 'src/web/search'])).toEqual([]);
  });

  it('the browser reaches the LLM only through what the composition root injects, and its doors stay thin', () => {
    // Interact's `prompt` planner is handed in by src/cli/serve.ts (src/llm/browser-actions.ts).
    expect(violations('src/browser', ['src/llm', 'auth'])).toEqual([]);
    // The DevTools door relays bytes: it knows the browser's entry, errors and log, nothing of the core.
    const door = importsOf(path.join(root, 'src/http/cdp-door.ts')).filter((t) => !['src/browser/index.ts', 'src/errors.ts', 'src/log.ts'].includes(t));
    expect(door).toEqual([]);
    // The browser tools are thin over the browser entry (and scrape, for interact by url).
    const tools = ['interact', 'interact-stop', 'browser-create', 'browser-execute', 'browser-list', 'browser-delete', 'browser-result'].flatMap((name) =>
      importsOf(path.join(root, `tools/${name}.ts`)).filter((t) => !t.startsWith('tools/') && !['src/browser/index.ts', 'src/errors.ts', 'src/limits/runner.ts', 'src/web/fetch/types.ts', 'src/web/scrape.ts', 'src/web/scrape-options.ts'].includes(t)),
    );
    expect(tools).toEqual([]);
  });

  it('auth and .well-known do not depend on the doors or the core', () => {
    const doors = ['src/http', 'src/mcp', 'src/cli', 'src/parse', 'tools'];
    expect([...violations('auth', doors), ...violations('.well-known', doors)]).toEqual([]);
  });

  it('the HTTP door reaches the core only through parse() and its options', () => {
    const deep = sourceFiles('src/http').flatMap((file) =>
      importsOf(file)
        .filter((t) => t.startsWith('src/parse/') && !['src/parse/index.ts', 'src/parse/options.ts'].includes(t))
        .map((t) => `${path.relative(root, file)} → ${t}`),
    );
    expect(deep).toEqual([]);
  });

  it('the PII subsystem is reached only through its entry file and imports nothing else of folio but the options', () => {
    const entry = 'src/parse/derive/pii/index.ts';
    const inward = ['src', 'tools', 'auth', 'bench'].flatMap(sourceFiles)
      .filter((file) => !path.relative(root, file).startsWith('src/parse/derive/pii/'))
      .flatMap((file) => importsOf(file).filter((t) => t.startsWith('src/parse/derive/pii/') && t !== entry).map((t) => `${path.relative(root, file)} → ${t}`));
    const outward = sourceFiles('src/parse/derive/pii').flatMap((file) =>
      importsOf(file).filter((t) => !t.startsWith('src/parse/derive/pii/') && t !== 'src/parse/options.ts').map((t) => `${path.relative(root, file)} → ${t}`),
    );
    expect([...inward, ...outward]).toEqual([]);
  });

  it('the LLM subsystem (src/llm) is reached only through its entry file and imports no door, store or limits', () => {
    const entry = 'src/llm/index.ts';
    const inward = ['src', 'tools', 'auth', 'bench'].flatMap(sourceFiles)
      .filter((file) => !path.relative(root, file).startsWith('src/llm/'))
      .flatMap((file) => importsOf(file).filter((t) => t.startsWith('src/llm/') && t !== entry).map((t) => `${path.relative(root, file)} → ${t}`));
    const outward = violations('src/llm', ['src/http', 'src/mcp', 'src/cli', 'src/store', 'src/limits', 'src/parse', 'src/web', 'src/uploads', 'src/accounts', 'auth', 'tools', '.well-known', 'src/main.ts']);
    expect([...inward, ...outward]).toEqual([]);
  });

  it('the agent (src/agent) is reached through its entry file and imports no door or parse core (its tools are the web operations)', () => {
    const entry = 'src/agent/index.ts';
    const inward = ['src', 'auth', 'tools', 'bench']
      .flatMap(sourceFiles)
      .filter((f) => !path.relative(root, f).startsWith('src/agent/'))
      .flatMap((file) => importsOf(file).filter((t) => t.startsWith('src/agent/') && t !== entry).map((t) => `${path.relative(root, file)} → ${t}`));
    expect(inward).toEqual([]);
    expect(violations('src/agent', ['src/http', 'src/mcp', 'src/cli', 'tools', 'src/parse', 'src/audit', 'auth', 'src/web/crawl', 'src/main.ts'])).toEqual([]);
  });

  it('the offline summary and json (derive/summary, derive/json, all but their index.ts) read only the intermediate document: no LLM, no PII, no doors', () => {
    const offline = ['src/parse/derive/summary', 'src/parse/derive/json'].flatMap((dir) =>
      sourceFiles(dir)
        .filter((file) => path.basename(file) !== 'index.ts')
        .flatMap((file) =>
          importsOf(file)
            // Inside the folder anything but its index.ts (the LLM wiring); outside it only document.ts.
            .filter((t) => (t.startsWith(`${dir}/`) ? path.basename(t) === 'index.ts' : t !== 'src/parse/document.ts'))
            .map((t) => `${path.relative(root, file)} → ${t}`),
        ),
    );
    expect(offline).toEqual([]);
  });

  it('the connection guard (src/http/connections) is socket and request plumbing: no core, store, MCP or tools', () => {
    expect(violations('src/http/connections', ['src/parse', 'src/store', 'src/mcp', 'src/cli', 'src/uploads', 'src/web', 'tools', 'src/http/routes'])).toEqual([]);
  });

  it('SIEM audit events (src/audit) are reached through their entry file and depend on no door, core, store or web operation', () => {
    const inward = ['src', 'auth', 'tools', 'bench']
      .flatMap(sourceFiles)
      .filter((f) => !path.relative(root, f).startsWith('src/audit/'))
      .flatMap((file) => importsOf(file).filter((t) => t.startsWith('src/audit/') && t !== 'src/audit/index.ts').map((t) => `${path.relative(root, file)} → ${t}`));
    expect(inward).toEqual([]);
    expect(violations('src/audit', ['src/http', 'src/mcp', 'src/cli', 'src/parse', 'src/store', 'src/web', 'src/uploads', 'src/limits', 'tools'])).toEqual([]);
  });

  it('accounts (src/accounts) are reached through their entry file (or the shared plan.ts seam) and import no door', () => {
    const allowed = ['src/accounts/index.ts', 'src/accounts/plan.ts'];
    const inward = ['src', 'auth', 'tools', 'test', 'bench']
      .flatMap(sourceFiles)
      .filter((f) => !path.relative(root, f).startsWith('src/accounts/'))
      .flatMap((file) =>
        importsOf(file)
          .filter((t) => t.startsWith('src/accounts/') && !allowed.includes(t))
          // config.ts names the shapes of its plan and prices only (type imports).
          .filter((t) => !(path.relative(root, file) === 'src/config.ts' && t === 'src/accounts/prices.ts'))
          .map((t) => `${path.relative(root, file)} → ${t}`),
      );
    expect(inward).toEqual([]);
    expect(violations('src/accounts', ['src/http', 'src/mcp', 'src/cli', 'tools', 'src/parse', 'src/web', 'src/limits'])).toEqual([]);
  });

  it('the shared limits (src/limits/redis) are reached through their entry file and know neither the doors, the store nor the web operations', () => {
    const outside = ['src', 'auth', 'tools', 'test', 'bench']
      .flatMap(sourceFiles)
      .filter((f) => !path.relative(root, f).startsWith('src/limits/redis/'))
      .flatMap((file) =>
        importsOf(file)
          .filter((t) => t.startsWith('src/limits/redis/') && t !== 'src/limits/redis/index.ts')
          .map((t) => `${path.relative(root, file)} → ${t}`),
      );
    expect(outside).toEqual([]);
    expect(violations('src/limits/redis', ['src/http', 'src/mcp', 'src/cli', 'tools', 'src/store', 'src/web', 'src/uploads', 'src/accounts', 'src/parse', 'auth'])).toEqual([]);
  });

  it('the team limits (src/limits/teams) are reached through their entry file and depend on neither the doors, the store nor the web operations', () => {
    const outside = ['src', 'auth', 'tools', 'test', 'bench']
      .flatMap(sourceFiles)
      .filter((f) => !path.relative(root, f).startsWith('src/limits/teams/'))
      .flatMap((file) =>
        importsOf(file)
          .filter((t) => t.startsWith('src/limits/teams/') && t !== 'src/limits/teams/index.ts')
          .map((t) => `${path.relative(root, file)} → ${t}`),
      );
    expect(outside).toEqual([]);
    expect(violations('src/limits/teams', ['src/http', 'src/mcp', 'src/cli', 'tools', 'src/store', 'src/web', 'src/uploads', 'auth'])).toEqual([]);
    // Of the parse core, only its entry's types (ParseData).
    const deep = sourceFiles('src/limits/teams').flatMap((file) =>
      importsOf(file).filter((t) => t.startsWith('src/parse/') && t !== 'src/parse/index.ts').map((t) => `${path.relative(root, file)} → ${t}`),
    );
    expect(deep).toEqual([]);
  });

  it('operations (src/ops) are reached through their entry file and import no door, store, web operation or limits', () => {
    const inward = ['src', 'auth', 'tools', 'test', 'bench']
      .flatMap(sourceFiles)
      .filter((f) => !path.relative(root, f).startsWith('src/ops/'))
      .flatMap((file) => importsOf(file).filter((t) => t.startsWith('src/ops/') && t !== 'src/ops/index.ts').map((t) => `${path.relative(root, file)} → ${t}`));
    expect(inward).toEqual([]);
    expect(violations('src/ops', ['src/http', 'src/mcp', 'src/cli', 'src/store', 'src/web', 'src/uploads', 'src/limits', 'src/llm', 'tools', 'auth'])).toEqual([]);
  });

  it('the MCP state in Redis (src/mcp/redis) is reached through its entry file, opens connections only through src/redis, and knows no door but the MCP registry it relays for', () => {
    const inward = ['src', 'auth', 'tools', 'test', 'bench']
      .flatMap(sourceFiles)
      .filter((f) => !path.relative(root, f).startsWith('src/mcp/redis/'))
      .flatMap((file) => importsOf(file).filter((t) => t.startsWith('src/mcp/redis/') && t !== 'src/mcp/redis/index.ts').map((t) => `${path.relative(root, file)} → ${t}`));
    expect(inward).toEqual([]);
    const allowed = ['src/redis/index.ts', 'src/errors.ts', 'src/mcp/running-calls.ts', 'tools/parse-results.ts'];
    const outward = sourceFiles('src/mcp/redis').flatMap((file) =>
      importsOf(file).filter((t) => !t.startsWith('src/mcp/redis/') && !allowed.includes(t)).map((t) => `${path.relative(root, file)} → ${t}`),
    );
    expect(outward).toEqual([]);
    // Connections are opened in src/redis only (one place for REDIS_URL handling and redaction).
    const direct = sourceFiles('src/mcp/redis').filter((f) => /new Redis\(/.test(fs.readFileSync(f, 'utf8')));
    expect(direct).toEqual([]);
  });

  it('only src/config.ts reads process.env', () => {
    const readers = ['src', 'auth', 'tools', '.well-known']
      .flatMap(sourceFiles)
      .filter((f) => /process\.env\b/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(root, f));
    expect(readers.filter((f) => f !== 'src/config.ts')).toEqual([]);
  });
});
