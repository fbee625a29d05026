import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import * as pages from '../services/pages.ts';
import { NewPage, PageId, PageSlug, PageUpdate } from './page.inputs.ts';
import { PageInput, PageList, PageNode } from './page.types.ts';

/** Pages. Storefronts read published pages only. */
@Resolver(() => PageNode)
export class PageResolver {
  // Storefront reads.
  @Requires('public', 'content')
  @Query(() => PageList, { description: 'Published pages.' })
  async cmsPages(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return pages.listPages(ctx, args, true);
  }

  @Requires('public', 'content')
  @Query(() => PageNode, { description: 'A published page.' })
  async cmsPage(@Ctx() ctx: RequestContext, @Arg('slug', () => String, { description: "The page's slug." }) slug: string) {
    return pages.findPage(ctx, parse(PageSlug, slug, 'slug'), true);
  }

  // Merchant.
  @Requires('merchant', 'content')
  @Query(() => PageList, { description: 'Pages of any status.' })
  async pages(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return pages.listPages(ctx, args, false);
  }

  @Requires('merchant', 'content')
  @Mutation(() => PageNode, { description: 'Creates a page (a draft unless status says published).' })
  async createPage(@Ctx() ctx: RequestContext, @Arg('input', () => PageInput, { description: 'The page to create.' }) input: PageInput) {
    return pages.createPage(ctx, parse(NewPage, input));
  }

  @Requires('merchant', 'content')
  @Mutation(() => PageNode)
  async updatePage(
    @Ctx() ctx: RequestContext,
    @Arg('pageId', () => ID, { description: "The page's id." }) pageId: string,
    @Arg('input', () => PageInput, { description: 'The fields to change; fields left out keep their value.' }) input: PageInput,
  ) {
    return pages.updatePage(ctx, parse(PageId, pageId, 'pageId'), parse(PageUpdate, input));
  }
}
