import { createServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A free TCP port on loopback (for a server process the test starts). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

/**
 * A real SMTP server on loopback that hands each message's raw text to `received`; the message is
 * acknowledged when `received` answers true (a test can hold a sender mid-delivery).
 */
export async function recordingSmtp(received: (data: string) => boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk) => (data += chunk));
      stream.on('end', () => {
        if (received(data)) callback();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  return { url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}
