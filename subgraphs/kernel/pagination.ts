import { ArgsType, Directive, Field, Int, ObjectType } from 'type-graphql';
import type { ClassType } from 'type-graphql';
import { badInput } from './errors.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** The list arguments every list takes: search, page (from 1), limit (default 20, at most 100). */
@ArgsType()
export class ListArgs {
  @Field(() => String, { nullable: true, description: 'Text to look for (names, titles, emails, …); empty for all.' })
  search?: string;

  @Field(() => Int, { nullable: true, description: 'Page number, at least 1 (default 1).' })
  page?: number;

  @Field(() => Int, { nullable: true, description: `Items per page, between 1 and ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` })
  limit?: number;
}

/** The list arguments of a merchant list without search: page (from 1) or offset, and limit. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: 'Page number, at least 1 (default 1).' })
  page?: number;

  @Field(() => Int, { nullable: true, description: `Items per page, between 1 and ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` })
  limit?: number;

  @Field(() => Int, { nullable: true, description: 'Items to skip, at least 0 (instead of page).' })
  offset?: number;
}

/** What a list is asked for, as the list arguments arrive (each may be left out). */
export interface ListQuery {
  page?: number | null;
  limit?: number | null;
  search?: string | null;
}

export interface PageRequest {
  page: number;
  limit: number;
  offset: number;
  search?: string;
}

/** Page and limit, or (for the tools that take it) an offset; the page reported is the one the offset falls in. */
export function pageRequest(args: { page?: number | null; limit?: number | null; search?: string | null; offset?: number | null }): PageRequest {
  const page = args.page ?? 1;
  const limit = args.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(page) || page < 1) throw badInput('page', 'must be an integer starting at 1');
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw badInput('limit', `must be between 1 and ${MAX_LIMIT}`);
  const search = args.search?.trim() || undefined;
  if (search?.includes('\u0000')) throw badInput('search', 'must not contain NUL characters');
  if (args.offset != null) {
    if (!Number.isInteger(args.offset) || args.offset < 0) throw badInput('offset', 'must be 0 or more');
    return { page: Math.floor(args.offset / limit) + 1, limit, offset: args.offset, search };
  }
  return { page, limit, offset: (page - 1) * limit, search };
}

@ObjectType({ description: 'Where a page sits in the whole list.' })
@Directive('@shareable')
export class Pagination {
  @Field(() => Int) page!: number;
  @Field(() => Int) limit!: number;
  @Field(() => Int) total!: number;
  @Field(() => Int) totalPages!: number;
  @Field(() => Boolean) hasNextPage!: boolean;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

export function toPage<T>(items: T[], total: number, req: PageRequest): Page<T> {
  const totalPages = Math.max(1, Math.ceil(total / req.limit));
  return { items, pagination: { page: req.page, limit: req.limit, total, totalPages, hasNextPage: req.page < totalPages } };
}

/**
 * A page of a list held whole in memory (computed rather than read: a day's slots, the payment
 * methods of the configuration), so it answers in the same shape as a list read page by page.
 */
export function pageOfAll<T>(all: readonly T[], req: PageRequest): Page<T> {
  return toPage(all.slice(req.offset, req.offset + req.limit), all.length, req);
}

/** `XPage { items: [X!]!, pagination: Pagination! }` for a list of X. */
export function PageOf<T extends object>(itemType: ClassType<T>, name: string) {
  @ObjectType(name)
  @Directive('@shareable')
  class PageClass {
    @Field(() => [itemType]) items!: T[];
    @Field(() => Pagination) pagination!: Pagination;
  }
  return PageClass;
}

/** Escapes LIKE wildcards in a search term. */
export const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
