/**
 * A subgraph's projections of another's data (commerce's customers and registrations, loyalty's
 * customers) follow that subgraph's events, delivered through the job queue a moment after it
 * committed. A customer who has just signed up, or registered for an event, may arrive before the
 * event does: a read that finds nothing looks again for a short while before answering "not found".
 */
// Seconds, not milliseconds: under load (many events queued at once) a delivery can take a few.
const GRACE_MS = 5000;
const POLL_MS = 50;

export async function readAllowingLag<T>(read: () => Promise<T | null>): Promise<T | null> {
  const deadline = Date.now() + GRACE_MS;
  for (;;) {
    const found = await read();
    if (found || Date.now() >= deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
