import { badInput } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import type { Block } from '../entities/block.ts';

type Data = Record<string, unknown>;
type Check = (data: Data, at: string) => Data;

const text = (data: Data, key: string, at: string, max = 20000): string => {
  const v = data[key];
  if (typeof v !== 'string' || !v.trim()) throw badInput(`${at}.${key}`, 'is required text');
  if (v.length > max) throw badInput(`${at}.${key}`, `must be at most ${max} characters`);
  return v;
};
const optionalText = (data: Data, key: string, at: string): string | undefined => (data[key] == null || data[key] === '' ? undefined : text(data, key, at));
const url = (data: Data, key: string, at: string): string => {
  const v = text(data, key, at, 2000);
  if (!/^(https?:\/\/|\/)/.test(v)) throw badInput(`${at}.${key}`, 'must be an http(s) URL or a path starting with /');
  return v;
};
const list = <T>(data: Data, key: string, at: string, item: (v: unknown, at: string) => T): T[] => {
  const v = data[key];
  if (!Array.isArray(v) || !v.length) throw badInput(`${at}.${key}`, 'must be a non-empty list');
  return v.map((x, i) => item(x, `${at}.${key}[${i}]`));
};
const object = (v: unknown, at: string): Data => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badInput(at, 'must be an object');
  return v as Data;
};

/** What each block type's data must hold. Unknown keys are dropped, so stored data is always clean. */
const BLOCKS: Record<string, Check> = {
  paragraph: (d, at) => ({ text: text(d, 'text', at) }),
  heading: (d, at) => {
    const level = d.level ?? 2;
    if (!Number.isInteger(level) || (level as number) < 1 || (level as number) > 6) throw badInput(`${at}.level`, 'must be 1 to 6');
    return { text: text(d, 'text', at, 300), level };
  },
  image: (d, at) => ({ url: url(d, 'url', at), alt: text(d, 'alt', at, 500), ...(optionalText(d, 'caption', at) ? { caption: d.caption } : {}) }),
  list: (d, at) => {
    const style = d.style ?? 'unordered';
    if (style !== 'ordered' && style !== 'unordered') throw badInput(`${at}.style`, 'must be ordered or unordered');
    return { style, items: list(d, 'items', at, (v, a) => text({ v }, 'v', a)) };
  },
  quote: (d, at) => ({ text: text(d, 'text', at), ...(optionalText(d, 'cite', at) ? { cite: d.cite } : {}) }),
  code: (d, at) => ({ code: text(d, 'code', at, 50000), ...(optionalText(d, 'language', at) ? { language: d.language } : {}) }),
  divider: () => ({}),
  embed: (d, at) => ({ url: url(d, 'url', at), ...(optionalText(d, 'caption', at) ? { caption: d.caption } : {}) }),
  file: (d, at) => ({ url: url(d, 'url', at), name: optionalText(d, 'name', at) ?? null }),
  faq: (d, at) => ({ items: list(d, 'items', at, (v, a) => ({ question: text(object(v, a), 'question', a), answer: text(object(v, a), 'answer', a) })) }),
  callout: (d, at) => {
    const tone = d.tone ?? 'info';
    if (!['info', 'success', 'warning', 'danger'].includes(tone as string)) throw badInput(`${at}.tone`, 'must be info, success, warning or danger');
    return { text: text(d, 'text', at), tone };
  },
  gallery: (d, at) => ({ images: list(d, 'images', at, (v, a) => ({ url: url(object(v, a), 'url', a), alt: text(object(v, a), 'alt', a, 500) })) }),
  cta: (d, at) => ({ text: text(d, 'text', at, 300), url: url(d, 'url', at) }),
  accordion: (d, at) => ({ items: list(d, 'items', at, (v, a) => ({ title: text(object(v, a), 'title', a, 300), content: text(object(v, a), 'content', a) })) }),
  product: (d, at) => {
    if (!isUuid(d.productId)) throw badInput(`${at}.productId`, 'must be a product id');
    return { productId: d.productId };
  },
  button: (d, at) => ({ text: text(d, 'text', at, 300), url: url(d, 'url', at) }),
  video: (d, at) => ({ url: url(d, 'url', at), ...(optionalText(d, 'caption', at) ? { caption: d.caption } : {}) }),
  form: (d, at) => {
    if (!isUuid(d.surveyId)) throw badInput(`${at}.surveyId`, 'must be the id of the survey the form shows');
    return { surveyId: d.surveyId };
  },
};

export const BLOCK_TYPES = Object.keys(BLOCKS);

/** Validates one block; errors name `typeField` or a path under `dataField` (e.g. props.level). */
export function blockData(type: unknown, data: unknown, typeField: string, dataField: string): { type: string; data: Data } {
  if (typeof type !== 'string' || !Object.hasOwn(BLOCKS, type)) throw badInput(typeField, `must be one of ${BLOCK_TYPES.join(', ')}`);
  return { type, data: BLOCKS[type](object(data ?? {}, dataField), dataField) };
}

/**
 * New blocks from input: each `{ type, data }` (or `props`, the append form's name) validated,
 * given an id and version 1.
 */
export function newBlocks(input: unknown, field = 'blocks'): Block[] {
  if (input == null) return [];
  if (!Array.isArray(input)) throw badInput(field, 'must be a list of blocks');
  if (input.length > 500) throw badInput(field, 'at most 500 blocks');
  return input.map((raw, i) => {
    const b = object(raw, `${field}[${i}]`);
    const { type, data } = blockData(b.type, b.data ?? b.props, `${field}[${i}].type`, `${field}[${i}].${b.data === undefined && b.props !== undefined ? 'props' : 'data'}`);
    return { id: newId(), version: 1, type, data };
  });
}
