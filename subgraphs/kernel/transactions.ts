import { EventEmitter } from 'node:events';
import type { EventSubscriber, FlushEventArgs, TransactionEventArgs } from '@mikro-orm/core';

/**
 * Announces committed writes of the tables other parts of the process wait on (the outbox),
 * so its dispatcher delivers right after the commit instead of on its next poll.
 */
export const committed = new EventEmitter();

const pending = new WeakMap<object, Set<string>>();

export class TransactionSubscriber implements EventSubscriber {
  afterFlush(args: FlushEventArgs): void {
    const names = new Set(args.uow.getChangeSets().map((cs) => cs.meta.className));
    if (!names.size) return;
    const tx = args.em.getTransactionContext();
    if (tx) {
      const set = pending.get(tx) ?? new Set<string>();
      for (const n of names) set.add(n);
      pending.set(tx, set);
    } else {
      for (const n of names) committed.emit(n);
    }
  }

  afterTransactionCommit(args: TransactionEventArgs): void {
    const tx = args.transaction as object | undefined;
    const names = tx && pending.get(tx);
    if (!names) return;
    pending.delete(tx);
    for (const n of names) committed.emit(n);
  }
}
