import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from './config.ts';

/**
 * Secrets a company gives the platform (a WhatsApp access token, an SMS provider's auth token) are
 * stored sealed: AES-256-GCM under a key derived from the platform's secret (HKDF-SHA256 of
 * JWT_SECRET, labelled for this use alone, so the key signs nothing and the secret encrypts
 * nothing), with a fresh nonce each time. The sealed text names its version, for a later key to
 * be told apart. A sealed secret is only ever opened to call the provider; no answer carries it.
 */

const VERSION = 'v1';
const keys = new WeakMap<Pick<Config, 'jwtSecret'>, Buffer>();

function keyOf(config: Pick<Config, 'jwtSecret'>): Buffer {
  let key = keys.get(config);
  if (!key) keys.set(config, (key = Buffer.from(hkdfSync('sha256', config.jwtSecret, 'service-platform', 'kernel.secrets.v1', 32))));
  return key;
}

/** `v1.<nonce>.<tag>.<ciphertext>`, each part base64url. */
export function sealSecret(config: Pick<Config, 'jwtSecret'>, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(config), nonce);
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The plaintext of a sealed secret; throws when it was altered or sealed under another key. */
export function openSecret(config: Pick<Config, 'jwtSecret'>, sealed: string): string {
  const [version, nonce, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || !nonce || !tag || ciphertext === undefined) throw new Error('Not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(config), Buffer.from(nonce, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
