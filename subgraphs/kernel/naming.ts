import { UnderscoreNamingStrategy } from '@mikro-orm/core';

/**
 * MikroORM's names, PostgreSQL's defaults: migrations are hand-written SQL and mostly let
 * PostgreSQL name constraints (`<table>_<columns>_fkey`, `_key`, `_idx`, `_check`), so entities
 * named the same way describe the same database (test/platform/schema-diff.test.ts compares them).
 * A relation property named for its column (`serviceId: p.manyToOne(Service).mapToPk()`) keeps
 * that column (`service_id`), not `service_id_id`.
 */
export class PostgresNamingStrategy extends UnderscoreNamingStrategy {
  override indexName(tableName: string, columns: string[], type: Parameters<UnderscoreNamingStrategy['indexName']>[2]): string {
    const suffix = { foreign: 'fkey', unique: 'key', index: 'idx', check: 'check' }[type as string];
    if (!suffix || !columns.length) return super.indexName(tableName, columns, type);
    const table = tableName.includes('.') ? tableName.slice(tableName.indexOf('.') + 1) : tableName;
    return `${table}_${columns.map((c) => c.replace(/\./g, '_')).join('_')}_${suffix}`;
  }

  override joinKeyColumnName(name: string, referencedColumnName?: string, composite?: boolean, tableName?: string): string {
    if (!composite && referencedColumnName === 'id' && /[a-z]Id$/.test(name)) return this.propertyToColumnName(name);
    return super.joinKeyColumnName(name, referencedColumnName, composite, tableName);
  }
}
