import { sqlLog } from '../../subgraphs/kernel/database.ts';

/**
 * SQL statements one call sends, measured on its second run (the first warms caches such as the
 * principal's), leaving out the outbox dispatcher's own polling.
 */
export async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  await run();
  sqlLog.recent = [];
  sqlLog.keep = true;
  try {
    await run();
  } finally {
    sqlLog.keep = false;
  }
  return sqlLog.recent.filter((sql) => !sql.includes('outbox_message'));
}
