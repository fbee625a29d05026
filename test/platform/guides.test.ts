import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_REASONS, ERROR_STATUS } from '../../subgraphs/kernel/errors.ts';

const DOCS = join(import.meta.dirname, '..', '..', 'docs');
const guides = readdirSync(DOCS).filter((f) => f.endsWith('.md'));

/**
 * The guides state errors as the API answers them: a status beside a code (`409 CONFLICT`) is that
 * code's status in the catalogue, and a `details.reason` named is a registered reason of the code
 * it is said with. (content.md once said `409 SOLD_OUT`: a reason written as if it were the code.)
 */
describe('error codes in the guides', () => {
  it.each(guides)('%s says each status with its own code', (file) => {
    const text = readFileSync(join(DOCS, file), 'utf8').replace(/\s+/g, ' ');
    for (const [, status, code] of text.matchAll(/\b([45]\d\d) `([A-Z][A-Z_]+)`/g)) {
      expect(ERROR_STATUS, `${file}: "${status} ${code}"`).toHaveProperty(code);
      expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${file}: "${status} ${code}"`).toBe(Number(status));
    }
    for (const [, code, reasons] of text.matchAll(/`([A-Z][A-Z_]+)` with `details\.reason` ((?:`[A-Z_]+`(?:,? (?:or )?)?)+)/g)) {
      for (const [, reason] of reasons.matchAll(/`([A-Z_]+)`/g)) {
        const registered = ERROR_REASONS[reason as keyof typeof ERROR_REASONS];
        expect(registered, `${file}: reason ${reason}`).toBeDefined();
        expect(registered.code, `${file}: reason ${reason} is said with ${code}`).toBe(code);
      }
    }
  });

  it('finds the statements it checks (the patterns still match how the guides write them)', () => {
    const all = guides.map((f) => readFileSync(join(DOCS, f), 'utf8').replace(/\s+/g, ' ')).join(' ');
    expect([...all.matchAll(/\b([45]\d\d) `([A-Z][A-Z_]+)`/g)].length).toBeGreaterThanOrEqual(8);
    expect(all).toMatch(/`CONFLICT` with `details\.reason` `SOLD_OUT`/);
  });
});
