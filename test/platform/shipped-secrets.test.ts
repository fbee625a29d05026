import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../subgraphs/kernel/config.ts';

const root = join(import.meta.dirname, '..', '..');

/** Every file of the repository, committed or not yet (ignored ones, such as .data/, excepted). */
const repositoryFiles = () =>
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && !f.startsWith('schema/') && statSync(join(root, f), { throwIfNoEntry: false })?.isFile());

/**
 * Values given to JWT_SECRET (or `jwtSecret`) in a file, in the ways a file gives one: a quoted
 * literal (`JWT_SECRET: '…'`, `JWT_SECRET="…"`), a bare word in YAML, .env, a shell line or a
 * Dockerfile (`JWT_SECRET: …`, `JWT_SECRET=…`, `ENV JWT_SECRET …`), a Compose default
 * (`${JWT_SECRET:-…}`). What is computed (`config.jwtSecret`, `'x'.repeat(32)`) is not a value.
 */
export function secretsIn(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\$\{JWT_SECRET:?[-=]([^}]*)\}/g)) found.push(m[1]);
  for (const m of text.matchAll(/(?:JWT_SECRET|jwtSecret)['"]?\s*[:=]\s*(['"`])([^'"`\n]*)\1(?!\s*\.)/g)) found.push(m[2]);
  for (const m of text.matchAll(/(?:^|\s)(?:ENV\s+|export\s+|-e\s+)?JWT_SECRET(?:\s*[:=]\s*|\s+)([^\s'"`$(){}#,;]+)(?=\s|$)/gm)) found.push(m[1]);
  return found.filter((v) => v && !v.includes('${'));
}

describe('shipped files', () => {
  it('find the secrets a file gives, in each syntax', () => {
    expect(secretsIn(`JWT_SECRET: \${JWT_SECRET:-change-me-to-a-long-random-secret-of-32-chars}`)).toEqual(['change-me-to-a-long-random-secret-of-32-chars']);
    expect(secretsIn(`loadConfig({ JWT_SECRET: 'test-secret-test-secret-test-secret-42' })`)).toEqual(['test-secret-test-secret-test-secret-42']);
    expect(secretsIn('JWT_SECRET=example-in-a-dotenv-file-of-32-chars\n')).toEqual(['example-in-a-dotenv-file-of-32-chars']);
    expect(secretsIn('ENV JWT_SECRET example-baked-into-an-image-000000\n')).toEqual(['example-baked-into-an-image-000000']);
    expect(secretsIn('docker run -e JWT_SECRET="example-quoted-on-a-command-line-0" app')).toEqual(['example-quoted-on-a-command-line-0']);
    expect(secretsIn(`JWT_SECRET: \${JWT_SECRET:?set JWT_SECRET}`)).toEqual([]);
    expect(secretsIn(`{ JWT_SECRET: config.jwtSecret, JWT_SECRET: 'x'.repeat(32) }`)).toEqual([]);
  });

  it('carry no JWT secret that production would accept', () => {
    const given = new Map<string, string[]>();
    for (const file of repositoryFiles()) {
      for (const secret of secretsIn(readFileSync(join(root, file), 'utf8'))) given.set(secret, [...(given.get(secret) ?? []), file]);
    }
    // The scan sees what is there: the tests' own secret and Compose's requirement.
    expect(given.get('test-secret-test-secret-test-secret-42')).toContain('test/support/server.ts');
    expect(readFileSync(join(root, 'docker-compose.yml'), 'utf8')).toMatch(/JWT_SECRET: \$\{JWT_SECRET:\?/);
    const accepted = [...given].filter(([secret]) => {
      try {
        loadConfig({ NODE_ENV: 'production', DATA_DIR: join(root, '.data', 'never-written'), JWT_SECRET: secret });
        return true;
      } catch {
        return false;
      }
    });
    expect(accepted.map(([, files]) => files)).toEqual([]);
  });

  it('leave a development data folder (its generated secret, the demo key) out of git and of the image', () => {
    expect(readFileSync(join(root, '.gitignore'), 'utf8').split('\n')).toContain('.data/');
    expect(readFileSync(join(root, '.dockerignore'), 'utf8').split('\n')).toContain('.data');
  });
});
