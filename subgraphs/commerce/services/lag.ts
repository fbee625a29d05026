/**
 * Commerce's projections (customers, registrations) follow other subgraphs' events, delivered
 * through the job queue a moment after the other subgraph committed. A customer who has just
 * signed up, or registered for an event, may reach commerce before that event does: a read that
 * finds nothing looks again for a short while before answering "not found".
 */
const GRACE_MS = 2000;
const POLL_MS = 50;

export async function readAllowingLag<T>(read: () => Promise<T | null>): Promise<T | null> {
  const deadline = Date.now() + GRACE_MS;
  for (;;) {
    const found = await read();
    if (found || Date.now() >= deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
