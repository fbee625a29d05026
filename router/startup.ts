import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A file `npm run build` left beside a built entry point in dist/ (the supergraph, the subgraph
 * and REST SDLs, the MCP tool registry, the migrated PGlite snapshot), by the entry's `import.meta.url`;
 * undefined when there is none, as when the entry runs from source under tsx.
 */
export function builtBeside(entryUrl: string, name: string): string | undefined {
  const file = fileURLToPath(new URL(name, entryUrl));
  return existsSync(file) ? file : undefined;
}

/**
 * Runs a program's main function: what a top-level await did in the ES modules they were (a
 * CommonJS bundle has none), a failure printed and the process ended with 1.
 */
export function runMain(main: () => Promise<void>): void {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
