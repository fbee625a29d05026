import type { Migration } from '../../kernel/module.ts';

/** Scoped keys: what each key may do, and its MCP defaults. Keys made before keep every scope. */
export const members0002: Migration = {
  name: '0002_api_key_scopes',
  statements: [
    `alter table members.api_key
      add column scopes text[] not null default '{*}',
      add column toolsets text[],
      add column read_only boolean not null default false`,
    'alter table members.api_key alter column scopes drop default, alter column read_only drop default',
  ],
};
