import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { queryAcrossTenants } from '../../kernel/query.ts';
import { announceCompanySettings, announceRevocation } from '../../kernel/revocation.ts';
import { freeSlug } from '../../kernel/slugs.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { isValidCountry, isValidCurrency, isValidTimeZone, oneOf, requireText } from '../../kernel/validation.ts';
import { Company, DEFAULT_REGISTRATION_FIELDS, FIELD_TYPES, LOGIN_CHANNELS, StorefrontDomain, type RegistrationField } from '../entities/company.ts';

/** Sensible first settings for a new company's country; the merchant changes them in settings. */
const COUNTRY_DEFAULTS: Record<string, { timeZone: string; currency: string }> = {
  US: { timeZone: 'America/New_York', currency: 'USD' },
  CA: { timeZone: 'America/Toronto', currency: 'CAD' },
  GB: { timeZone: 'Europe/London', currency: 'GBP' },
  IE: { timeZone: 'Europe/Dublin', currency: 'EUR' },
  DE: { timeZone: 'Europe/Berlin', currency: 'EUR' },
  FR: { timeZone: 'Europe/Paris', currency: 'EUR' },
  ES: { timeZone: 'Europe/Madrid', currency: 'EUR' },
  IT: { timeZone: 'Europe/Rome', currency: 'EUR' },
  NL: { timeZone: 'Europe/Amsterdam', currency: 'EUR' },
  PL: { timeZone: 'Europe/Warsaw', currency: 'PLN' },
  SE: { timeZone: 'Europe/Stockholm', currency: 'SEK' },
  CH: { timeZone: 'Europe/Zurich', currency: 'CHF' },
  TR: { timeZone: 'Europe/Istanbul', currency: 'TRY' },
  AE: { timeZone: 'Asia/Dubai', currency: 'AED' },
  IN: { timeZone: 'Asia/Kolkata', currency: 'INR' },
  SG: { timeZone: 'Asia/Singapore', currency: 'SGD' },
  JP: { timeZone: 'Asia/Tokyo', currency: 'JPY' },
  AU: { timeZone: 'Australia/Sydney', currency: 'AUD' },
  NZ: { timeZone: 'Pacific/Auckland', currency: 'NZD' },
  BR: { timeZone: 'America/Sao_Paulo', currency: 'BRL' },
  MX: { timeZone: 'America/Mexico_City', currency: 'MXN' },
  ZA: { timeZone: 'Africa/Johannesburg', currency: 'ZAR' },
};

export interface NewCompany {
  name: string;
  industry: string;
  country: string;
  ownerEmail: string;
  timeZone?: string;
  currency?: string;
}

/** Creates a tenant with a unique slug (suffixing -2, -3… when the name's slug is taken). */
export async function createCompany(tx: RequestContext, input: NewCompany): Promise<Company> {
  const defaults = COUNTRY_DEFAULTS[input.country] ?? { timeZone: 'UTC', currency: 'USD' };
  const slug = await freeSlug(tx, 'members.company', input.name, { fallback: 'company' });
  return tx.em.create(Company, {
    id: newId(),
    name: input.name,
    slug,
    industry: input.industry,
    country: input.country,
    timeZone: input.timeZone ?? defaults.timeZone,
    currency: input.currency ?? defaults.currency,
    loginChannel: 'email',
    registrationFields: DEFAULT_REGISTRATION_FIELDS,
    ownerEmail: input.ownerEmail,
  });
}

/** The caller's company, to read (a plain row). */
export async function getCompany(ctx: RequestContext): Promise<RowOf<'members.company'>> {
  const company = await ctx.first(ctx.query.selectFrom('members.company').selectAll().where('id', '=', ctx.companyId));
  if (!company) throw notFound('Company');
  return company;
}

export interface CompanySettingsInput {
  name?: string | null;
  timeZone?: string | null;
  currency?: string | null;
  loginChannel?: string | null;
  registrationFields?: (Omit<RegistrationField, 'required'> & { required?: boolean | null })[] | null;
}

export function updateCompanySettings(ctx: RequestContext, input: CompanySettingsInput): Promise<Company> {
  return ctx.transaction(async (tx) => {
    const company = await tx.em.findOne(Company, { id: tx.companyId });
    if (!company) throw notFound('Company');
    applySettings(company, input);
    await announceCompanySettings(tx, company.id);
    return company;
  });
}

function applySettings(company: Company, input: CompanySettingsInput): void {
  if (input.name != null) company.name = requireText('name', input.name);
  if (input.timeZone != null) {
    if (!isValidTimeZone(input.timeZone)) throw badInput('timeZone', 'must be an IANA time zone such as Europe/Berlin');
    company.timeZone = input.timeZone;
  }
  if (input.currency != null) {
    const currency = input.currency.toUpperCase();
    if (!isValidCurrency(currency)) throw badInput('currency', 'must be an ISO 4217 currency code such as EUR');
    company.currency = currency;
  }
  if (input.loginChannel != null) {
    company.loginChannel = oneOf('loginChannel', input.loginChannel, LOGIN_CHANNELS);
  }
  if (input.registrationFields != null) company.registrationFields = validateFields(input.registrationFields);
}

function validateFields(fields: NonNullable<CompanySettingsInput['registrationFields']>): RegistrationField[] {
  const keys = new Set<string>();
  const result = fields.map((f, i) => {
    const at = `registrationFields[${i}]`;
    if (!/^[a-zA-Z][a-zA-Z0-9_]{0,39}$/.test(f.key ?? '')) throw badInput(`${at}.key`, 'must be a letter followed by letters, digits or _');
    if (keys.has(f.key)) throw badInput(`${at}.key`, `"${f.key}" appears twice`);
    keys.add(f.key);
    oneOf(`${at}.type`, f.type, FIELD_TYPES);
    if (f.type === 'select' && !f.options?.length) throw badInput(`${at}.options`, 'a select field needs options');
    return { key: f.key, label: requireText(`${at}.label`, f.label), type: f.type, required: !!f.required, ...(f.options?.length ? { options: f.options } : {}) };
  });
  // Name is what every customer record carries; the form always asks for it.
  if (!keys.has('name')) result.unshift(DEFAULT_REGISTRATION_FIELDS[0]);
  return result.map((f) => (f.key === 'name' ? { ...f, required: true } : f));
}

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

export function normalizeHost(field: string, value: unknown): string {
  const host = requireText(field, value, 253).toLowerCase().replace(/^https?:\/\//, '').replace(/\/.*$/, '').replace(/:\d+$/, '').replace(/\.$/, '');
  if (!HOST.test(host)) throw badInput(field, 'must be a host name such as shop.example.com');
  return host;
}

/** Host names no merchant may claim: the platform's own, local names and bare IP addresses. */
function reservedHost(host: string, config: RequestContext['config']): boolean {
  return host === new URL(config.publicUrl).hostname || host === 'localhost' || host.endsWith('.localhost') || /^[\d.]+$/.test(host);
}

export async function addStorefrontDomain(ctx: RequestContext, domain: unknown): Promise<StorefrontDomain> {
  const host = normalizeHost('domain', domain);
  if (reservedHost(host, ctx.config)) throw badInput('domain', 'is reserved; use a host name of your own');
  return ctx.transaction(async (tx) => {
    const row = tx.em.create(StorefrontDomain, { id: newId(), host });
    // Requests on this host now belong to this company: no process may keep a cached resolution.
    await announceRevocation(tx, { host });
    return row;
  });
}

export async function listStorefrontDomains(ctx: RequestContext): Promise<RowOf<'members.storefront_domain'>[]> {
  return ctx.all(ctx.query.selectFrom('members.storefront_domain').selectAll().orderBy('createdAt').orderBy('id'));
}

/** Domain → tenant, across tenants by nature (the caller does not know its tenant yet). */
export async function resolveDomain(ctx: RequestContext, domain: unknown): Promise<RowOf<'members.company'>> {
  const host = normalizeHost('domain', domain);
  const row = await ctx.first(queryAcrossTenants(ctx.em).query.selectFrom('members.storefront_domain').select('companyId').where('host', '=', host));
  // Not a tenant table: read without a company.
  const company = row && (await ctx.first(ctx.query.selectFrom('members.company').selectAll().where('id', '=', row.companyId)));
  if (!company) throw notFound('Storefront domain');
  return company;
}

export function validateCountry(value: unknown): string {
  const country = requireText('country', value, 60).toUpperCase();
  if (!isValidCountry(country)) throw badInput('country', 'must be an ISO 3166-1 alpha-2 country code such as US');
  return country;
}
