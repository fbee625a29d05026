/**
 * Retries `fn` until it resolves (it throws or rejects while its condition does not hold yet):
 * for effects delivered asynchronously, such as event subscribers, instead of a fixed sleep.
 * Gives up after `tries` attempts `intervalMs` apart with the last failure.
 */
export async function eventually<T>(fn: () => T | Promise<T>, { tries = 100, intervalMs = 50 }: { tries?: number; intervalMs?: number } = {}): Promise<T> {
  let last: unknown;
  for (let i = 0; i < tries; i++) {
    try {
      return await fn();
    } catch (error) {
      last = error;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
  throw last;
}
