/** The menu tools' inputs: a location, and a tree of items, checked before the service sees them. */
import { z } from 'zod';
import { id, ifGiven, text } from '../../kernel/schemas.ts';
import type { MenuItem } from '../entities/menu.ts';

/** Where a menu is shown, compared in lower case. */
export const MenuLocation = text(60).transform((v) => v.toLowerCase());

export const NewMenuLocation = MenuLocation.refine((v) => /^[a-z0-9][a-z0-9_-]*$/.test(v), 'must be letters, digits, - or _ (e.g. header, footer)');

const link = z.string().refine((v) => /^(https?:\/\/|\/|#|mailto:|tel:)/.test(v), 'must be a URL or a path');

/** Below the third level nothing is taken: an item of the third level may have no children. */
const tooDeep = z.array(z.unknown()).max(0, 'menus nest at most 3 levels');

/** The items of a list `level` deep (the menu's own list is 1). */
const items = (level: number): z.ZodType<MenuItem[]> =>
  level > 3
    ? (tooDeep as unknown as z.ZodType<MenuItem[]>)
    : z.array(
        z
          .object({
            label: text(100),
            url: ifGiven(link),
            pageId: ifGiven(id('page')),
            postId: ifGiven(id('post')),
            children: z.preprocess((v) => v ?? [], items(level + 1)),
          })
          .refine((i) => [i.url, i.pageId, i.postId].filter((x) => x !== undefined).length === 1, 'needs exactly one of url, pageId or postId')
          .transform((i): MenuItem => ({ label: i.label, url: i.url ?? null, pageId: i.pageId ?? null, postId: i.postId ?? null, children: i.children })),
      );

/** A menu's items in order (it replaces the whole menu). */
export const MenuItems = items(1);
