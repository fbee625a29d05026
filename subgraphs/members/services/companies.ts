import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { queryAcrossTenants } from '../../kernel/query.ts';
import { announceCompanySettings, announceRevocation } from '../../kernel/revocation.ts';
import { freeSlug } from '../../kernel/slugs.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { Company, DEFAULT_REGISTRATION_FIELDS, StorefrontDomain, type LoginChannel, type RegistrationField } from '../entities/company.ts';

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

/** One field of the registration form as given (resolvers/company.inputs.ts checked its key, type, label and options). */
export type RegistrationFieldChange = Omit<RegistrationField, 'required' | 'options'> & { required?: boolean | null; options?: string[] | null };

/** Settings to change, checked by the edge; null or absent keeps a setting as it is. */
export interface CompanySettingsChanges {
  name?: string | null;
  timeZone?: string | null;
  currency?: string | null;
  loginChannel?: LoginChannel | null;
  /** Replaces the form; each key once. */
  registrationFields?: RegistrationFieldChange[] | null;
}

export function updateCompanySettings(ctx: RequestContext, input: CompanySettingsChanges): Promise<Company> {
  return ctx.transaction(async (tx) => {
    const company = await tx.em.findOne(Company, { id: tx.companyId });
    if (!company) throw notFound('Company');
    applyChanges(company, input, { set: ['name', 'timeZone', 'currency', 'loginChannel'] });
    if (input.registrationFields != null) company.registrationFields = registrationForm(input.registrationFields);
    await announceCompanySettings(tx, company.id);
    return company;
  });
}

function registrationForm(fields: RegistrationFieldChange[]): RegistrationField[] {
  const result: RegistrationField[] = fields.map((f) => ({
    key: f.key,
    label: f.label,
    type: f.type,
    required: !!f.required,
    ...(f.options?.length ? { options: f.options } : {}),
  }));
  // Name is what every customer record carries; the form always asks for it.
  if (!result.some((f) => f.key === 'name')) result.unshift(DEFAULT_REGISTRATION_FIELDS[0]);
  return result.map((f) => (f.key === 'name' ? { ...f, required: true } : f));
}

/** Host names no merchant may claim: the platform's own, local names and bare IP addresses. */
function reservedHost(host: string, config: RequestContext['config']): boolean {
  return host === new URL(config.publicUrl).hostname || host === 'localhost' || host.endsWith('.localhost') || /^[\d.]+$/.test(host);
}

/** Serves the storefront on a host name (lower-cased and bare, as resolvers/company.inputs.ts gives it). */
export async function addStorefrontDomain(ctx: RequestContext, domain: string): Promise<StorefrontDomain> {
  if (reservedHost(domain, ctx.config)) throw badInput('domain', 'is reserved; use a host name of your own');
  return ctx.transaction(async (tx) => {
    const row = tx.em.create(StorefrontDomain, { id: newId(), host: domain });
    // Requests on this host now belong to this company: no process may keep a cached resolution.
    await announceRevocation(tx, { host: domain });
    return row;
  });
}

export async function listStorefrontDomains(ctx: RequestContext): Promise<RowOf<'members.storefront_domain'>[]> {
  return ctx.all(ctx.query.selectFrom('members.storefront_domain').selectAll().orderBy('createdAt').orderBy('id'));
}

/** Domain → tenant, across tenants by nature (the caller does not know its tenant yet). */
export async function resolveDomain(ctx: RequestContext, host: string): Promise<RowOf<'members.company'>> {
  const row = await ctx.first(queryAcrossTenants(ctx.em).query.selectFrom('members.storefront_domain').select('companyId').where('host', '=', host));
  // Not a tenant table: read without a company.
  const company = row && (await ctx.first(ctx.query.selectFrom('members.company').selectAll().where('id', '=', row.companyId)));
  if (!company) throw notFound('Storefront domain');
  return company;
}
