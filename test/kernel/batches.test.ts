import { describe, expect, it } from 'vitest';
import { perKey } from '../../subgraphs/kernel/batches.ts';

describe('perKey (what a batch loader answers)', () => {
  const rows = [
    { id: 'r1', serviceId: 'b' },
    { id: 'r2', serviceId: 'a' },
    { id: 'r3', serviceId: 'x' },
    { id: 'r4', serviceId: 'b' },
  ];

  it("answers each key's items in the keys' order, the items in their own order", () => {
    const answer = perKey(['a', 'b', 'c'], rows, (r) => r.serviceId);
    expect(answer.map((items) => items.map((r) => r.id))).toEqual([['r2'], ['r1', 'r4'], []]);
  });

  it('leaves out items of keys not asked for, and gives a key asked twice an array of its own each time', () => {
    const answer = perKey(['b', 'b'], rows, (r) => r.serviceId);
    expect(answer.map((items) => items.map((r) => r.id))).toEqual([
      ['r1', 'r4'],
      ['r1', 'r4'],
    ]);
    expect(answer[0]).not.toBe(answer[1]);
    expect(perKey([], rows, (r) => r.serviceId)).toEqual([]);
  });
});
