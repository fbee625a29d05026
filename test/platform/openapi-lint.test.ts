import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { http } from '../support/client.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** The served OpenAPI document passes `redocly lint` (its recommended rules, redocly.yaml) with no error and no warning. */
describe('the OpenAPI document', () => {
  it('lints clean with @redocly/cli', async () => {
    const res = await http('/openapi/connect-v6.openapi.json');
    expect(res.status).toBe(200);
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-lint-')), 'connect-v6.openapi.json');
    writeFileSync(file, JSON.stringify(res.body));
    const { stdout } = await run(join(ROOT, 'node_modules', '.bin', 'redocly'), ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'], {
      cwd: ROOT,
    }).catch((e) => e);
    const problems = (JSON.parse(stdout) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] }).problems;
    expect(problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  }, 60_000);

  it('has X-Company-Id as a header parameter of every public and customer route', async () => {
    const { body } = await http('/openapi/connect-v6.openapi.json');
    const operations = Object.entries(body.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );
    const tenant = operations.filter(({ path }) => path.startsWith('/v6/customer-portal/'));
    expect(tenant.length).toBeGreaterThan(20);
    for (const { path, method, op } of tenant) {
      const refs = (op.parameters ?? []).map((p: { $ref?: string }) => p.$ref);
      const needsTenant = (op.security as Record<string, string[]>[]).some((s) => 'companyId' in s);
      if (needsTenant) expect(refs, `${method} ${path}`).toContain('#/components/parameters/CompanyId');
    }
    expect(body.components.parameters.CompanyId).toMatchObject({ name: 'X-Company-Id', in: 'header', required: false });
  });
});
