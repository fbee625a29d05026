import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';

/** Everything the processes read from the environment, read in one place. */
export interface Config {
  port: number;
  /** PostgreSQL URL; PGlite in `dataDir` when absent. */
  databaseUrl?: string;
  dataDir: string;
  nodeEnv: string;
  production: boolean;
  publicUrl: string;
  jwtSecret: string;
  /** SMTP transport for email; the `log` transport when absent. */
  smtpUrl?: string;
  mailFrom: string;
  /** How long a claimed job may run before it counts as abandoned and is retried (a process died mid-job). */
  jobExpireSeconds: number;
  /** How often the queue's supervisor looks for abandoned and expired jobs. */
  jobSuperviseSeconds: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const production = nodeEnv === 'production';
  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    nodeEnv,
    production,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    jwtSecret: jwtSecret(env, production, dataDir),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'no-reply@localhost',
    jobExpireSeconds: positiveInt('JOB_EXPIRE_SECONDS', env.JOB_EXPIRE_SECONDS, 120),
    jobSuperviseSeconds: positiveInt('JOB_SUPERVISE_SECONDS', env.JOB_SUPERVISE_SECONDS, 30),
  };
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of seconds, got ${value}`);
  return n;
}

/** Production must be given a secret; elsewhere one is generated once and kept in the data folder. */
function jwtSecret(env: NodeJS.ProcessEnv, production: boolean, dataDir: string): string {
  if (env.JWT_SECRET) {
    if (env.JWT_SECRET.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    return env.JWT_SECRET;
  }
  if (production) throw new Error('JWT_SECRET is required when NODE_ENV=production');
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
