import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpProvider } from '../../subgraphs/kernel/messaging/email.ts';
import { ProviderFailure } from '../../subgraphs/kernel/messaging/providers.ts';

/** The SMTP provider against a real SMTP server on loopback (what Mailpit is in docker-compose). */
describe('SMTP provider', () => {
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

  it('delivers an email with subject, text and html; the Message-ID comes from the idempotency key', async () => {
    const { providerMessageId } = await smtpProvider(url, 'studio@example.test').send({
      to: 'ann@example.test',
      subject: 'Your sign-in code',
      text: 'Your code is 123456.',
      idempotencyKey: 'campaign-1:customer-2',
    });
    expect(providerMessageId).toBe('<campaign-1.customer-2@example.test>');
    expect(received).toHaveLength(1);
    expect(received[0].from).toBe('studio@example.test');
    expect(received[0].to).toEqual(['ann@example.test']);
    expect(received[0].data).toContain('Subject: Your sign-in code');
    expect(received[0].data).toContain('Your code is 123456.');
    expect(received[0].data).toContain('Message-ID: <campaign-1.customer-2@example.test>');
    expect(received[0].data).not.toContain('List-Unsubscribe');
  });

  it('a 550 reply is a permanent failure and a hard bounce', async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      },
    });
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
    try {
      const provider = smtpProvider(`smtp://127.0.0.1:${(refusing.server.address() as AddressInfo).port}`, 'studio@example.test');
      const failure = await provider.send({ to: 'gone@example.test', subject: 'Hi', text: 'Hi', idempotencyKey: 'k' }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ProviderFailure);
      expect(failure).toMatchObject({ permanent: true, hardBounce: true, providerCode: '550' });
    } finally {
      await new Promise<void>((r) => refusing.close(() => r()));
    }
  });
});
