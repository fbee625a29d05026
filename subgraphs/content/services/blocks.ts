/**
 * What each block type's data holds. The edge checks the blocks an input gives
 * (resolvers/block.inputs.ts); a service checks data against a stored block's type (a replaced
 * block keeps its type unless given one). Unknown keys are dropped, so stored data is always clean.
 */
import { z } from 'zod';
import { badInput } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { parse } from '../../kernel/schemas.ts';
import type { Block } from '../entities/block.ts';

type Data = Record<string, unknown>;

/** Text as a block holds it: not blank, kept as written. */
const text = (max = 20000) =>
  z
    .string({ error: 'is required text' })
    .refine((v) => v.trim() !== '', 'is required text')
    .max(max, `must be at most ${max} characters`);
/** Optional text: absent, null or empty is left out. */
const optionalText = () => z.preprocess((v) => (v === '' || v === null ? undefined : v), text().optional());
const url = () => text(2000).refine((v) => /^(https?:\/\/|\/)/.test(v), 'must be an http(s) URL or a path starting with /');
const list = <T extends z.ZodType>(item: T) => z.array(item, { error: 'must be a non-empty list' }).min(1, 'must be a non-empty list');
const object = <S extends z.ZodRawShape>(shape: S) => z.object(shape, { error: 'must be an object' });
const uuid = (message: string) => z.string({ error: message }).refine(isUuid, message);

/** A block's data: the shape's keys, those left out not kept. */
const data = <S extends z.ZodRawShape>(shape: S) =>
  object(shape).transform((d): Data => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)));

const BLOCK_DATA = {
  paragraph: data({ text: text() }),
  heading: data({ text: text(300), level: z.preprocess((v) => v ?? 2, z.int('must be 1 to 6').min(1, 'must be 1 to 6').max(6, 'must be 1 to 6')) }),
  image: data({ url: url(), alt: text(500), caption: optionalText() }),
  list: data({ style: z.preprocess((v) => v ?? 'unordered', z.enum(['ordered', 'unordered'], 'must be ordered or unordered')), items: list(text()) }),
  quote: data({ text: text(), cite: optionalText() }),
  code: data({ code: text(50000), language: optionalText() }),
  divider: data({}),
  embed: data({ url: url(), caption: optionalText() }),
  file: data({ url: url(), name: optionalText().transform((v) => v ?? null) }),
  faq: data({ items: list(object({ question: text(), answer: text() })) }),
  callout: data({
    text: text(),
    tone: z.preprocess((v) => v ?? 'info', z.enum(['info', 'success', 'warning', 'danger'], 'must be info, success, warning or danger')),
  }),
  gallery: data({ images: list(object({ url: url(), alt: text(500) })) }),
  cta: data({ text: text(300), url: url() }),
  accordion: data({ items: list(object({ title: text(300), content: text() })) }),
  product: data({ productId: uuid('must be a product id') }),
  button: data({ text: text(300), url: url() }),
  video: data({ url: url(), caption: optionalText() }),
  form: data({ surveyId: uuid('must be the id of the survey the form shows') }),
} satisfies Record<string, z.ZodType<Data>>;

export type BlockType = keyof typeof BLOCK_DATA;
export const BLOCK_TYPES = Object.keys(BLOCK_DATA) as [BlockType, ...BlockType[]];

/** A block's type and its checked data, before it has an id. */
export interface BlockContent {
  type: BlockType;
  data: Data;
}

/** The data schema of a block type. */
export const blockDataOf = (type: BlockType): z.ZodType<Data> => BLOCK_DATA[type];

/** Data checked against a type (a stored block's, which may be one no longer offered); problems are named under `field` (props.level). */
export function blockData(type: string, value: Data | null | undefined, field: string): BlockContent {
  if (!Object.hasOwn(BLOCK_DATA, type)) throw badInput('type', `must be one of ${BLOCK_TYPES.join(', ')}`);
  return { type: type as BlockType, data: parse(BLOCK_DATA[type as BlockType], value ?? {}, field) };
}

/** A new block: its own id, version 1. */
export const newBlock = ({ type, data }: BlockContent): Block => ({ id: newId(), version: 1, type, data });
