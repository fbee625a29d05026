import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../subgraphs/kernel/config.ts';

const DOCS_DIR = join(import.meta.dirname, '..', 'docs');
const GUIDES: Record<string, string> = {
  '/docs/sign-in.md': 'sign-in.md',
  '/docs/merchant-signup.md': 'merchant-signup.md',
  '/docs/booking.md': 'booking.md',
  '/docs/content.md': 'content.md',
  '/docs/safe-writes.md': 'safe-writes.md',
  '/docs/errors.md': 'errors.md',
};

/** /llms.txt and the Markdown guides it points to; null for other paths. */
export function docsRoute(path: string, config: Config): { type: string; body: string } | null {
  if (path === '/llms.txt') {
    const body = readFileSync(join(DOCS_DIR, 'llms.txt'), 'utf8').replaceAll('{base_url}', config.publicUrl);
    return { type: 'text/plain; charset=utf-8', body };
  }
  const file = GUIDES[path];
  if (!file) return null;
  return { type: 'text/markdown; charset=utf-8', body: readFileSync(join(DOCS_DIR, file), 'utf8').replaceAll('{base_url}', config.publicUrl) };
}
