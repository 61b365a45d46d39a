/**
 * The Dockerfile and docker-compose.yml are not built here (no image registry), so this keeps
 * them true instead: the image installs exactly the system packages of scripts/setup.sh (less the
 * tests' redis-server), runs the command of `npm start`, as a non-root user with DATA_DIR on a
 * volume and a /health check; every variable they set is one folio reads (src/config.ts) and the
 * README documents; the compose file has two folio instances, Redis, PostgreSQL and MinIO.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const dockerfile = read('Dockerfile');
const compose = read('docker-compose.yml');
const readme = read('README.md');
const setup = read('scripts/setup.sh');
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; bin: Record<string, string> };

/** The variables src/config.ts's schema reads. */
const configKeys = (() => {
  const text = read('src/config.ts');
  const schema = text.slice(text.indexOf('const EnvSchema = z.object({'), text.indexOf('\n});', text.indexOf('const EnvSchema')));
  return new Set([...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1] as string));
})();

/** The variables of the README's Configuration table. */
const readmeKeys = (() => {
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
  const rows = section.split('\n').filter((l) => l.startsWith('| `'));
  return new Set(rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] as string)));
})();

const setupPackages = new Set([...setup.matchAll(/needed\+=\(([a-z0-9.+-]+)\)/g)].map((m) => m[1] as string));

const aptPackages = [...dockerfile.matchAll(/apt-get install -y --no-install-recommends ([^\\\n&]+)/g)].flatMap((m) => (m[1] ?? '').trim().split(/\s+/));

/** `KEY=value` pairs of the Dockerfile's ENV instructions (continuation lines included). */
const dockerEnv = (() => {
  const env = new Map<string, string>();
  for (const m of dockerfile.matchAll(/^ENV ((?:[^\n]*\\\n)*[^\n]*)/gm)) {
    for (const pair of (m[1] ?? '').replace(/\\\n/g, ' ').trim().split(/\s+/)) {
      const [k, v] = pair.split('=');
      if (k && v !== undefined) env.set(k, v);
    }
  }
  return env;
})();

/** The service blocks of the compose file: name → its text. */
const services = (() => {
  const body = compose.slice(compose.indexOf('\nservices:') + 1, compose.indexOf('\nvolumes:'));
  const out = new Map<string, string>();
  let name: string | undefined;
  for (const line of body.split('\n').slice(1)) {
    const m = /^ {2}([a-z0-9-]+):\s*$/.exec(line);
    if (m?.[1]) {
      name = m[1];
      out.set(name, '');
    } else if (name) out.set(name, `${out.get(name)}${line}\n`);
  }
  return out;
})();

/** The keys of the `environment:` maps in a piece of the compose file. */
function environmentKeys(text: string): Set<string> {
  const keys = new Set<string>();
  let indent = -1;
  for (const line of text.split('\n')) {
    const lead = (/^(\s*)/.exec(line)?.[1] ?? '').length;
    if (/^\s*environment:/.test(line)) {
      indent = lead;
      continue;
    }
    if (indent < 0) continue;
    if (line.trim() === '' || lead <= indent) {
      indent = -1;
      continue;
    }
    const key = /^\s+([A-Z][A-Z0-9_]+):/.exec(line)?.[1];
    if (key) keys.add(key);
  }
  return keys;
}

/** What the folio services set: the shared `x-folio` block and each folio service's own. */
const folioServices = [...services.entries()].filter(([, text]) => /<<: \*folio\b/.test(text));
const composeFolioEnv = new Set([
  ...environmentKeys(compose.slice(0, compose.indexOf('\nservices:'))),
  ...folioServices.flatMap(([, text]) => [...environmentKeys(text)]),
]);

describe('Dockerfile', () => {
  it('is Node 20 on Debian slim in every stage', () => {
    const froms = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(froms.length).toBeGreaterThan(0);
    for (const image of froms) expect(image).toMatch(/^node:20-(bookworm|bullseye|trixie)-slim$/);
  });

  it('installs the packages of scripts/setup.sh, and only those (redis-server is the tests\')', () => {
    expect(setupPackages.size).toBeGreaterThan(5);
    const expected = [...setupPackages].filter((p) => p !== 'redis-server').sort();
    expect([...new Set(aptPackages)].sort()).toEqual(expected);
  });

  it('runs what `npm start` runs, as a non-root user, with DATA_DIR on a volume and a /health check', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(cmd).toBeDefined();
    expect((JSON.parse(cmd ?? '[]') as string[]).join(' ')).toBe(pkg.scripts.start);
    expect(pkg.bin.folio).toBe('bin/folio.js');
    const user = /^USER (\S+)$/m.exec(dockerfile)?.[1];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    const dataDir = dockerEnv.get('DATA_DIR');
    expect(dataDir).toBeDefined();
    expect(dockerfile).toMatch(new RegExp(`^VOLUME \\["${dataDir}"\\]$`, 'm'));
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*\/health/m);
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${dockerEnv.get('PORT')}$`, 'm'));
  });

  it('sets only variables folio reads and the README documents', () => {
    const folioVars = [...dockerEnv.keys()].filter((k) => k !== 'NODE_ENV');
    expect(folioVars.length).toBeGreaterThan(2);
    for (const key of folioVars) {
      expect(configKeys, key).toContain(key);
      expect(readmeKeys, key).toContain(key);
    }
  });
});

describe('docker-compose.yml', () => {
  it('has two folio instances built from the Dockerfile, Redis, PostgreSQL and an S3-compatible store', () => {
    expect(folioServices.length).toBe(2);
    expect(compose).toMatch(/^ {2}build: \.$/m);
    expect(services.get('redis')).toMatch(/image: redis:/);
    expect(services.get('postgres')).toMatch(/image: postgres:/);
    expect(services.get('minio')).toMatch(/image: minio\/minio/);
  });

  it('starts folio with the command of `npm start`', () => {
    const cmd = /^ {2}command: (\[.*\])$/m.exec(compose)?.[1];
    expect((JSON.parse(cmd ?? '[]') as string[]).join(' ')).toBe(pkg.scripts.start);
  });

  it('sets only variables folio reads and the README documents, and keeps /metrics behind a token', () => {
    expect(composeFolioEnv.size).toBeGreaterThan(5);
    for (const key of composeFolioEnv) {
      expect(configKeys, key).toContain(key);
      expect(readmeKeys, key).toContain(key);
    }
    expect(composeFolioEnv).toContain('REDIS_URL');
    expect(composeFolioEnv).toContain('FOLIO_METRICS_TOKEN');
    expect(compose).toMatch(/FOLIO_METRICS_TOKEN: \$\{FOLIO_METRICS_TOKEN:\?/);
  });
});

describe('README', () => {
  it('documents every variable folio reads', () => {
    expect(configKeys.size).toBeGreaterThan(50);
    expect([...configKeys].filter((k) => !readmeKeys.has(k))).toEqual([]);
  });

  it('names the production install and the image', () => {
    expect(readme).toContain('npm ci --omit=dev && npm start');
    expect(readme).toContain('docker compose');
  });
});
