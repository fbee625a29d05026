import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_REASONS, ERROR_STATUS } from '../../subgraphs/kernel/errors.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** The README and every Markdown file under docs/ (guides, API pages, operations, decisions). */
const guides = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f.split(sep).join('/')}`)
    .sort(),
];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\s+/g, ' ');

/** A status said beside a code, however it is written: 409 `CONFLICT`, `409 CONFLICT`, `CONFLICT` 409, 409 CONFLICT. */
function statusCodePairs(text: string): [status: string, code: string][] {
  const before = [...text.matchAll(/\b([45]\d\d)`? `?([A-Z][A-Z_]{3,})\b/g)].map((m) => [m[1], m[2]] as [string, string]);
  const after = [...text.matchAll(/\b([A-Z][A-Z_]{3,})`? ([45]\d\d)\b/g)].map((m) => [m[2], m[1]] as [string, string]);
  return [...before, ...after];
}

/**
 * The guides state errors as the API answers them: a status beside a code (`409 CONFLICT`) is that
 * code's status in the catalogue, and a `details.reason` named is a registered reason of the code
 * it is said with. (content.md once said `409 SOLD_OUT`: a reason written as if it were the code.)
 */
describe('error codes in the guides', () => {
  it.each(guides)('%s says each status with its own code', (file) => {
    const text = read(file);
    for (const [status, code] of statusCodePairs(text)) {
      // A reason is never the code (`409 SOLD_OUT`); other capitals beside a status (`HTTP 401`) are not codes.
      expect(code in ERROR_REASONS, `${file}: "${status} ${code}" gives a reason as the code`).toBe(false);
      if (code in ERROR_STATUS) expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${file}: "${status} ${code}"`).toBe(Number(status));
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
    const all = guides.map(read).join(' ');
    const pairs = statusCodePairs(all).map(([status, code]) => `${status} ${code}`);
    expect(pairs.length).toBeGreaterThanOrEqual(25);
    // Each way of writing it is found: 409 `SLOT_TAKEN`, `429 RATE_LIMITED`, `FORBIDDEN` 403, 409 SLOT_TAKEN.
    for (const pair of ['409 SLOT_TAKEN', '429 RATE_LIMITED', '403 FORBIDDEN', '422 IDEMPOTENCY_KEY_REUSED']) expect(pairs).toContain(pair);
    expect(all).toMatch(/`CONFLICT` with `details\.reason` `SOLD_OUT`/);
  });
});
