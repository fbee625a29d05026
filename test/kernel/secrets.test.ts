import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from '../../subgraphs/kernel/secrets.ts';

const config = { jwtSecret: 'test-secret-test-secret-test-secret-42' };
const other = { jwtSecret: 'another-platform-secret-of-32-characters' };

describe('sealed secrets', () => {
  it('open to what was sealed, and never hold it in the clear', () => {
    const token = 'EAAG-whatsapp-access-token-Zx9';
    const sealed = sealSecret(config, token);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(token);
    expect(openSecret(config, sealed)).toBe(token);
  });

  it('differ each time the same secret is sealed (a fresh nonce)', () => {
    expect(sealSecret(config, 'same')).not.toBe(sealSecret(config, 'same'));
  });

  it('refuse to open when altered, sealed under another platform secret, or not sealed at all', () => {
    const sealed = sealSecret(config, 'auth-token-123');
    const [version, nonce, tag, ciphertext] = sealed.split('.');
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] ^= 1;
    expect(() => openSecret(config, [version, nonce, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => openSecret(other, sealed)).toThrow();
    expect(() => openSecret(config, 'auth-token-123')).toThrow('Not a sealed secret');
  });
});
