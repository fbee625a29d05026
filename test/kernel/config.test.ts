import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../subgraphs/kernel/config.ts';

describe('configuration', () => {
  it('requires JWT_SECRET in production and generates and keeps one elsewhere', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'config-')), 'data');
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ JWT_SECRET: 'short', DATA_DIR: dir })).toThrow(/32/);
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first.jwtSecret);
    const prod = loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, JWT_SECRET: 'p'.repeat(40), PORT: '8080', PUBLIC_URL: 'https://api.example.com/' });
    expect(prod).toMatchObject({ production: true, port: 8080, publicUrl: 'https://api.example.com', jwtSecret: 'p'.repeat(40) });
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: dir })).toThrow(/PORT/);
  });
});
