import { sqlLog } from '../../subgraphs/kernel/database.ts';

/**
 * SQL statements one call sends, measured after a first run that warms caches such as the
 * principal's, leaving out the outbox dispatcher's own polling. The fewest of three runs: reads
 * made in the same turn of the event loop travel as one statement (kernel/reads.ts), so on a
 * loaded machine answers that arrive a turn apart can cost a statement more; one query per list
 * item shows in every run.
 */
export async function statementsOf(run: () => Promise<unknown>, runs = 3): Promise<string[]> {
  await run();
  let fewest: string[] | undefined;
  for (let i = 0; i < runs; i++) {
    sqlLog.recent = [];
    sqlLog.keep = true;
    try {
      await run();
    } finally {
      sqlLog.keep = false;
    }
    const sent = sqlLog.recent.filter((sql) => !sql.includes('outbox_message'));
    if (!fewest || sent.length < fewest.length) fewest = sent;
  }
  return fewest!;
}
