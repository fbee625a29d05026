/** Blocks as posts and pages give them: a type, and data checked against it (services/blocks.ts). */
import { z } from 'zod';
import { oneOf } from '../../kernel/schemas.ts';
import { BLOCK_TYPES, blockDataOf, type BlockContent, type BlockType } from '../services/blocks.ts';

/** The data of a block of `type`, its problems named under `at` (data or props). */
function checked(type: BlockType, value: unknown, at: string, ctx: z.RefinementCtx): BlockContent {
  const result = blockDataOf(type).safeParse(value ?? {});
  if (result.success) return { type, data: result.data };
  for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [at, ...issue.path] });
  return z.NEVER as never;
}

/** `{ type, data }`, or `props` for data (the append form's name). */
const block = z
  .object({ type: oneOf(BLOCK_TYPES), data: z.unknown().optional(), props: z.unknown().optional() }, { error: 'must be an object' })
  .transform((b, ctx) => checked(b.type, b.data ?? b.props, b.data === undefined && b.props !== undefined ? 'props' : 'data', ctx));

/** A post's or page's blocks, in order. */
export const Blocks = z.array(block, { error: 'must be a list of blocks' }).max(500, 'at most 500 blocks');

/** A block appended by type and props. */
export const AppendedBlock = z
  .object({ type: oneOf(BLOCK_TYPES), props: z.unknown().optional() })
  .transform((b, ctx) => checked(b.type, b.props, 'props', ctx));
