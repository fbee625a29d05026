import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { parse } from '../../kernel/schemas.ts';
import * as menus from '../services/menus.ts';
import { MenuItems, MenuLocation, NewMenuLocation } from './menu.inputs.ts';
import { MenuItemInput, MenuNode } from './menu.types.ts';

/** Navigation menus. Storefronts see links to published content only. */
@Resolver(() => MenuNode)
export class MenuResolver {
  // Storefront reads.
  @Requires('public', 'content')
  @Query(() => MenuNode, { description: 'The navigation menu of a location (header, footer…), linking published content only.' })
  async cmsMenu(
    @Ctx() ctx: RequestContext,
    @Arg('location', () => String, { description: 'Where the menu is shown, e.g. header or footer.' }) location: string,
  ) {
    return menus.menuAt(ctx, parse(MenuLocation, location, 'location'), true);
  }

  // Merchant.
  @Requires('merchant', 'content')
  @Mutation(() => MenuNode, { description: 'Sets the whole menu of a location.' })
  async setMenu(
    @Ctx() ctx: RequestContext,
    @Arg('location', () => String, { description: 'Where the menu is shown, e.g. header or footer.' }) location: string,
    @Arg('items', () => [MenuItemInput], { description: "The menu's items in order (replaces the whole menu)." }) items: MenuItemInput[],
  ) {
    return menus.setMenu(ctx, parse(NewMenuLocation, location, 'location'), parse(MenuItems, items, 'items'));
  }
}
