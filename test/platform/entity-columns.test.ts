import { describe, expect, it } from 'vitest';
import { testServer } from '../support/server.ts';

/**
 * Migrations are hand-written SQL; this checks them against the entity definitions: every mapped
 * property has its column, with the same nullability, in the migrated database.
 */
describe('entities and migrations', () => {
  it('agree on every table and column', async () => {
    const { app } = await testServer();
    const orm = app.platform.runtime.db.orm;
    const rows = await orm.em
      .getConnection()
      .execute<{ table_schema: string; table_name: string; column_name: string; is_nullable: string }[]>(
        `select table_schema, table_name, column_name, is_nullable from information_schema.columns where table_schema in ('kernel', 'members', 'booking', 'content')`,
      );
    const columns = new Map(rows.map((r) => [`${r.table_schema}.${r.table_name}.${r.column_name}`, r.is_nullable === 'YES']));
    const problems: string[] = [];
    let checked = 0;
    const all: any = orm.getMetadata().getAll();
    const metas: any[] = all instanceof Map ? [...all.values()] : Object.values(all);
    for (const meta of metas) {
      if (!meta.tableName || meta.embeddable) continue;
      for (const prop of Object.values(meta.properties) as any[]) {
        if ((prop as any).persist === false || !prop.fieldNames?.length) continue;
        const key = `${meta.schema}.${meta.tableName}.${prop.fieldNames[0]}`;
        checked++;
        if (!columns.has(key)) problems.push(`${meta.className}.${prop.name}: no column ${key}`);
        else if (!!prop.nullable !== columns.get(key) && !prop.primary) problems.push(`${meta.className}.${prop.name}: nullable ${!!prop.nullable} in the entity, ${columns.get(key)} in ${key}`);
      }
    }
    expect(problems).toEqual([]);
    expect(metas.length).toBeGreaterThan(25);
    expect(checked).toBeGreaterThan(200);
  });
});
