/**
 * A Node fetch client in a process of its own (the server's event loop must not pace it, or the
 * race between its writes and the server's answer never shows): POSTs `bytes` of JSON to each
 * path `tries` times, with a declared length and streamed (chunked), and prints what each got, a
 * status or the error's code (EPIPE, ECONNRESET), counted.
 * Usage: node big-body-client.mjs <base url> <bytes> <tries> <path>...
 */
const [base, bytes, tries, ...paths] = process.argv.slice(2);
const total = Number(bytes);
const body = Buffer.alloc(total, 'x');
const chunk = new Uint8Array(64 * 1024).fill(0x78);
const streamed = () => {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      controller.enqueue(chunk);
      sent += chunk.length;
    },
  });
};
const counts = {};
for (const path of paths) {
  for (let i = 0; i < Number(tries); i++) {
    for (const how of ['declared', 'streamed']) {
      let outcome;
      try {
        const init = how === 'declared' ? { body } : { body: streamed(), duplex: 'half' };
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          ...init,
        });
        const text = await res.text();
        outcome = `${res.status}${text.includes('PAYLOAD_TOO_LARGE') ? ' PAYLOAD_TOO_LARGE' : ''}`;
      } catch (error) {
        outcome = error.cause?.code ?? error.code ?? error.message;
      }
      const key = `${how} ${path}: ${outcome}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
}
process.stdout.write(JSON.stringify(counts));
