/** The company tools' inputs: settings, the registration form and storefront host names. */
import { z } from 'zod';
import { currency, oneOf, text, timeZone } from '../../kernel/schemas.ts';
import { FIELD_TYPES, LOGIN_CHANNELS } from '../entities/company.ts';
import type { CompanySettingsChanges, RegistrationFieldChange } from '../services/companies.ts';

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** A host name, lower-cased, as pasted: a scheme, a path, a port or a trailing dot around it is dropped. */
export const Host = text(253)
  .transform((v) =>
    v
      .toLowerCase()
      .replace(/^https?:\/\//, '')
      .replace(/\/.*$/, '')
      .replace(/:\d+$/, '')
      .replace(/\.$/, ''),
  )
  .refine((v) => HOST.test(v), 'must be a host name such as shop.example.com');

export const NewStorefrontDomain = z.object({ domain: Host });

const registrationField = z
  .object({
    key: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]{0,39}$/, 'must be a letter followed by letters, digits or _'),
    type: oneOf(FIELD_TYPES),
    label: text(200),
    required: z.boolean().nullish(),
    options: z.array(z.string()).nullish(),
  })
  .refine((f) => f.type !== 'select' || !!f.options?.length, {
    message: 'a select field needs options',
    path: ['options'],
  }) satisfies z.ZodType<RegistrationFieldChange>;

/** The form's fields, each key once (the list replaces the form). */
const registrationFields = z.array(registrationField).superRefine((fields, ctx) => {
  const keys = new Set<unknown>();
  fields.forEach((f, i) => {
    if (keys.has(f.key)) ctx.addIssue({ code: 'custom', message: `"${f.key}" appears twice`, path: [i, 'key'] });
    keys.add(f.key);
  });
});

/** Settings to change; null or absent keeps a setting as it is. */
export const CompanySettings = z.object({
  name: text(200).nullish(),
  timeZone: timeZone().nullish(),
  currency: currency().nullish(),
  loginChannel: oneOf(LOGIN_CHANNELS).nullish(),
  registrationFields: registrationFields.nullish(),
}) satisfies z.ZodType<CompanySettingsChanges>;
