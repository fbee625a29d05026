import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { loadPlans, type PlanDefinition } from './plan-catalogue.ts';

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
  /** Limits on a GraphQL operation at the router (router/limits.ts). */
  queryLimits: QueryLimits;
  /**
   * Browser origins allowed to call /v6, /graphql and /mcp cross-origin (CORS), besides the companies'
   * storefront domains and, outside production, localhost: `CORS_ORIGINS`, comma separated, each an
   * origin (`https://shop.example.com`, `http://localhost:5173`), a wildcard subdomain
   * (`https://*.example.com`, not the apex) or `*` for any origin. Normalised: lower case, no default port.
   */
  corsOrigins: string[];
  /** The largest request body read (bytes); a larger one is refused with 413 before it is read. */
  maxBodyBytes: number;
  /** Campaign sending (subgraphs/campaigns): rates. */
  campaigns: CampaignSettings;
  /** The messaging providers' addresses and the platform's own WhatsApp app (subgraphs/messaging). */
  messaging: MessagingSettings;
  /** The legacy /connect/v1 routes (facades/rest/legacy.ts): when they were deprecated and when they stop answering. */
  legacy: LegacySettings;
  /** The plans, their features and limits (kernel/plan-catalogue.ts; PLANS changes them). */
  plans: PlanDefinition[];
  /** Storefront operations per minute per client address and company (STOREFRONT_REQUESTS_PER_MINUTE), not metered. */
  storefrontRequestsPerMinute: number;
}

export interface LegacySettings {
  /** LEGACY_DEPRECATION_DATE (default 2026-11-01): the Deprecation header. */
  deprecatedAt: Date;
  /** LEGACY_SUNSET_DATE (default 180 days after the deprecation): the Sunset header; afterwards 410 GONE. */
  sunsetAt: Date;
}

export interface CampaignSettings {
  /** Messages per second per company and channel (CAMPAIGN_RATE_EMAIL, _SMS, _WHATSAPP). */
  rates: { email: number; sms: number; whatsapp: number };
}

export interface MessagingSettings {
  /** The Cloud API with its version (WHATSAPP_GRAPH_URL, default `https://graph.facebook.com/v21.0`). */
  whatsappGraphUrl: string;
  /** The platform's Meta app secret, which signs WhatsApp webhooks (WHATSAPP_APP_SECRET). */
  whatsappAppSecret?: string;
  /** What Meta's webhook handshake must present (WHATSAPP_VERIFY_TOKEN). */
  whatsappVerifyToken?: string;
  /** Twilio's API (TWILIO_API_URL, default `https://api.twilio.com`). */
  twilioApiUrl: string;
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
    queryLimits: loadQueryLimits(env),
    corsOrigins: originList('CORS_ORIGINS', env.CORS_ORIGINS),
    maxBodyBytes: positiveInt('MAX_BODY_BYTES', env.MAX_BODY_BYTES, 1024 * 1024, 'bytes'),
    legacy: legacySettings(env),
    plans: loadPlans(env.PLANS),
    storefrontRequestsPerMinute: positiveInt('STOREFRONT_REQUESTS_PER_MINUTE', env.STOREFRONT_REQUESTS_PER_MINUTE, 600, 'requests'),
    messaging: {
      whatsappGraphUrl: httpUrl('WHATSAPP_GRAPH_URL', env.WHATSAPP_GRAPH_URL, 'https://graph.facebook.com/v21.0'),
      whatsappAppSecret: env.WHATSAPP_APP_SECRET || undefined,
      whatsappVerifyToken: env.WHATSAPP_VERIFY_TOKEN || undefined,
      twilioApiUrl: httpUrl('TWILIO_API_URL', env.TWILIO_API_URL, 'https://api.twilio.com'),
    },
    campaigns: {
      rates: {
        email: positiveInt('CAMPAIGN_RATE_EMAIL', env.CAMPAIGN_RATE_EMAIL, 10, 'messages per second'),
        sms: positiveInt('CAMPAIGN_RATE_SMS', env.CAMPAIGN_RATE_SMS, 1, 'messages per second'),
        whatsapp: positiveInt('CAMPAIGN_RATE_WHATSAPP', env.CAMPAIGN_RATE_WHATSAPP, 1, 'messages per second'),
      },
    },
  };
}

/** An http(s) URL without its trailing slash, or the fallback. */
function httpUrl(name: string, value: string | undefined, fallback: string): string {
  if (!value) return fallback;
  if (!/^https?:\/\/[^\s]+$/.test(value)) throw new Error(`${name} must be an http(s) URL, got ${value}`);
  return value.replace(/\/+$/, '');
}

function positiveInt(name: string, value: string | undefined, fallback: number, unit = 'seconds'): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of ${unit}, got ${value}`);
  return n;
}

/** `*`, or origins `scheme://host[:port]` (http or https; host may start with `*.`); never `null`, a path or a query. */
function originList(name: string, value: string | undefined): string[] {
  const origins: string[] = [];
  for (const raw of (value ?? '').split(',')) {
    const entry = raw.trim().toLowerCase().replace(/\/$/, '');
    if (!entry) continue;
    if (entry === '*') {
      origins.push(entry);
      continue;
    }
    const match = /^(https?):\/\/((?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/.exec(entry);
    if (!match || (match[3] !== undefined && Number(match[3]) > 65535))
      throw new Error(`${name}: "${raw.trim()}" is not an origin such as https://shop.example.com (or *)`);
    const [, scheme, host, digits] = match;
    const port = digits === undefined ? undefined : Number(digits);
    origins.push(`${scheme}://${host}${port !== undefined && port !== (scheme === 'https' ? 443 : 80) ? `:${port}` : ''}`);
  }
  return [...new Set(origins)];
}

/**
 * What one GraphQL operation may ask of the router. The defaults leave every operation of the
 * storefront, the merchant routes and the MCP tools well inside (test/platform/graphql-limits.test.ts
 * runs them all against these numbers).
 */
export interface QueryLimits {
  /** Lexical tokens in the document (GRAPHQL_MAX_TOKENS); the parser stops at the first one over. */
  tokens: number;
  /** Nesting of selections, fragments flattened, introspection's `__schema` not counted (GRAPHQL_MAX_DEPTH). */
  depth: number;
  /** Aliased fields in an operation (GRAPHQL_MAX_ALIASES). */
  aliases: number;
  /** Directives used in an operation (GRAPHQL_MAX_DIRECTIVES). */
  directives: number;
  /** Estimated cost of an operation, from the supergraph's `@cost` and `@listSize` (GRAPHQL_MAX_COST). */
  cost: number;
  /** How many entries a list without `@listSize` is assumed to hold (GRAPHQL_ASSUMED_LIST_SIZE). */
  listSize: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = { tokens: 2000, depth: 10, aliases: 30, directives: 20, cost: 10000, listSize: 10 };

export function loadQueryLimits(env: NodeJS.ProcessEnv = process.env): QueryLimits {
  const read = (name: string, fallback: number) => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, got ${value}`);
    return n;
  };
  const d = DEFAULT_QUERY_LIMITS;
  return {
    tokens: read('GRAPHQL_MAX_TOKENS', d.tokens),
    depth: read('GRAPHQL_MAX_DEPTH', d.depth),
    aliases: read('GRAPHQL_MAX_ALIASES', d.aliases),
    directives: read('GRAPHQL_MAX_DIRECTIVES', d.directives),
    cost: read('GRAPHQL_MAX_COST', d.cost),
    listSize: read('GRAPHQL_ASSUMED_LIST_SIZE', d.listSize),
  };
}

/**
 * Production must be given a secret of its own (productionSecretProblem); elsewhere one is
 * generated once and kept in the data folder.
 */
function jwtSecret(env: NodeJS.ProcessEnv, production: boolean, dataDir: string): string {
  if (env.JWT_SECRET) {
    if (env.JWT_SECRET.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    const problem = production ? productionSecretProblem(env.JWT_SECRET) : undefined;
    if (problem)
      throw new Error(
        `JWT_SECRET ${problem}: anyone who knows it can sign merchant sessions. NODE_ENV=production needs a random secret of its own, e.g. from \`openssl rand -base64 48\``,
      );
    return env.JWT_SECRET;
  }
  if (production) throw new Error('JWT_SECRET is required when NODE_ENV=production (a random secret of 32+ characters, e.g. from `openssl rand -base64 48`)');
  return generatedSecret(dataDir);
}

/**
 * Secrets written in this repository (tests, scripts, an earlier docker-compose.yml default):
 * public, so never a production secret. test/platform/shipped-secrets.test.ts finds every one.
 */
const PUBLISHED_SECRETS = new Set([
  'test-secret-test-secret-test-secret-42',
  'sdk-generate-secret-sdk-generate-secret',
  'snapshot-only-snapshot-only-snapshot-only',
  'bench-secret-bench-secret-bench-secret-0001',
  'change-me-to-a-long-random-secret-of-32-chars',
]);

/**
 * Words of a placeholder or a made-up secret. Five letters or more: a random secret of 64 base64
 * characters holds one by chance a few times in a million.
 */
const PLACEHOLDER_WORDS = ['change', 'replace', 'example', 'placeholder', 'secret', 'password', 'sample', 'dummy', 'default', 'insecure'];

/**
 * Why a JWT_SECRET is not fit for production, or undefined: published, a placeholder, or a run of
 * characters repeated (`x` × 32, `word-word-`). Random bytes repeat eight characters in a row with
 * odds below one in a million, even written in hex.
 */
function productionSecretProblem(secret: string): string | undefined {
  if (PUBLISHED_SECRETS.has(secret)) return 'is a secret published in this project (its tests, scripts or examples)';
  const lower = secret.toLowerCase();
  const word = PLACEHOLDER_WORDS.find((w) => lower.includes(w));
  if (word) return `looks like a placeholder (it contains "${word}")`;
  if (/(.{8}).*\1/s.test(secret)) return 'repeats a run of characters, which random bytes do not';
  return undefined;
}

/**
 * The development secret of a data folder, made on its first start. Created whole or not at all
 * (written beside, then linked in place), so that two processes starting together on a new folder
 * end up with the same secret.
 */
function generatedSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const draft = `${file}.${process.pid}.tmp`;
  writeFileSync(draft, randomBytes(48).toString('base64url'), { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  return readFileSync(file, 'utf8').trim();
}

const DAY_MS = 24 * 60 * 60 * 1000;

function legacySettings(env: NodeJS.ProcessEnv): LegacySettings {
  const date = (name: string, value: string | undefined, fallback: Date) => {
    if (!value) return fallback;
    const at = new Date(value);
    if (Number.isNaN(at.getTime())) throw new Error(`${name} must be an ISO-8601 date, got ${value}`);
    return at;
  };
  const deprecatedAt = date('LEGACY_DEPRECATION_DATE', env.LEGACY_DEPRECATION_DATE, new Date('2026-11-01T00:00:00Z'));
  const sunsetAt = date('LEGACY_SUNSET_DATE', env.LEGACY_SUNSET_DATE, new Date(deprecatedAt.getTime() + 180 * DAY_MS));
  if (sunsetAt <= deprecatedAt) throw new Error('LEGACY_SUNSET_DATE must be after LEGACY_DEPRECATION_DATE');
  return { deprecatedAt, sunsetAt };
}
