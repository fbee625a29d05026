import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpTransport, transportsFor } from '../../subgraphs/kernel/outbox/transports.ts';
import { loadConfig } from '../../subgraphs/kernel/config.ts';

/** The SMTP transport against a real SMTP server on loopback (what Mailpit is in docker-compose). */
describe('SMTP transport', () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let server: SMTPServer;
  let url: string;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk) => (data += chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? (session.envelope.mailFrom as any).address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('delivers an outbox email with subject and body', async () => {
    await smtpTransport(url, 'studio@example.test').send({
      channel: 'email',
      to: 'ann@example.test',
      subject: 'Your sign-in code',
      body: 'Your code is 123456.',
    });
    expect(received).toHaveLength(1);
    expect(received[0].from).toBe('studio@example.test');
    expect(received[0].to).toEqual(['ann@example.test']);
    expect(received[0].data).toContain('Subject: Your sign-in code');
    expect(received[0].data).toContain('Your code is 123456.');
  });

  it('is chosen for email when SMTP_URL is set; SMS and WhatsApp stay on the log transport', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/smtp-config-test', JWT_SECRET: 'x'.repeat(32), SMTP_URL: url });
    const transports = transportsFor(config);
    expect(transports.email.name).toBe('smtp');
    expect(transports.sms.name).toBe('log');
    expect(transportsFor(loadConfig({ DATA_DIR: '/tmp/smtp-config-test', JWT_SECRET: 'x'.repeat(32) })).email.name).toBe('log');
  });
});
