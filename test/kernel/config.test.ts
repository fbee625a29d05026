import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../subgraphs/kernel/config.ts';

const dataDir = () => join(mkdtempSync(join(tmpdir(), 'config-')), 'data');
const production = (JWT_SECRET: string | undefined) => () =>
  loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir(), ...(JWT_SECRET === undefined ? {} : { JWT_SECRET }) });

describe('configuration', () => {
  it('requires JWT_SECRET in production and generates and keeps one elsewhere', () => {
    const dir = dataDir();
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir })).toThrow(/JWT_SECRET is required/);
    expect(() => loadConfig({ JWT_SECRET: 'short', DATA_DIR: dir })).toThrow(/32/);
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8')).toBe(first.jwtSecret);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first.jwtSecret);
    const strong = randomBytes(48).toString('base64url');
    const prod = loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, JWT_SECRET: strong, PORT: '8080', PUBLIC_URL: 'https://api.example.com/' });
    expect(prod).toMatchObject({ production: true, port: 8080, publicUrl: 'https://api.example.com', jwtSecret: strong });
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: dir })).toThrow(/PORT/);
  });

  it('refuses in production a short, published or placeholder secret, saying why', () => {
    expect(production('k3Y#9fQ2')).toThrow(/JWT_SECRET must be at least 32 characters/);
    // Published in this repository: its tests, scripts and the earlier docker-compose.yml default.
    for (const published of [
      'test-secret-test-secret-test-secret-42',
      'sdk-generate-secret-sdk-generate-secret',
      'snapshot-only-snapshot-only-snapshot-only',
      'bench-secret-bench-secret-bench-secret-0001',
      'change-me-to-a-long-random-secret-of-32-chars',
    ]) {
      expect(production(published), published).toThrow(/JWT_SECRET is a secret published in this project.*NODE_ENV=production needs a random secret/);
    }
    for (const [placeholder, word] of [
      ['please-CHANGE-this-value-before-going-live', 'change'],
      ['replace_with_a_real_value_0123456789abcdef', 'replace'],
      ['your-jwt-secret-goes-here-at-least-32-chars', 'secret'],
      ['Password1Password2-but-longer-than-32-chars', 'password'],
      ['an-example-value-for-the-documentation-42', 'example'],
      ['placeholder-0000000000000000000000000000000', 'placeholder'],
    ]) {
      expect(production(placeholder), placeholder).toThrow(new RegExp(`placeholder \\(it contains "${word}"\\)`));
    }
    for (const repeated of ['x'.repeat(32), 'p'.repeat(40), 'abc123xyz-abc123xyz-abc123xyz-42', 'a1b2c3d4e5f6g7h8a1b2c3d4e5f6g7h8']) {
      expect(production(repeated), repeated).toThrow(/repeats a run of characters/);
    }
    // The refusal does not carry the secret it refused.
    const refusal = (() => {
      try {
        production('abc123xyz-abc123xyz-abc123xyz-42')();
      } catch (error) {
        return String(error);
      }
    })();
    expect(refusal).toMatch(/JWT_SECRET repeats/);
    expect(refusal).not.toContain('abc123xyz');
  });

  it('accepts in production a random secret, however it is written', () => {
    for (const strong of [randomBytes(48).toString('base64'), randomBytes(32).toString('hex'), randomBytes(24).toString('base64url')]) {
      expect(production(strong)().jwtSecret).toBe(strong);
    }
    // The same published secret is still fine outside production (tests, scripts, the bench).
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir(), JWT_SECRET: 'test-secret-test-secret-test-secret-42' }).jwtSecret).toBe(
      'test-secret-test-secret-test-secret-42',
    );
  });
});
