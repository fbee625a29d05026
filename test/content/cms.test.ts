import { describe, expect, it } from 'vitest';
import { http } from '../support/client.ts';
import { bearer, signInCustomer, signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';

const P = '/v6/customer-portal';

async function studio(name = 'Content Studio') {
  const company = await signupCompany(name);
  const merchant = await mcpClient(company.apiKey);
  const h = { 'x-company-id': company.companyId };
  return { company, merchant, h };
}

describe('posts', () => {
  it('an agent drafts a post, the storefront cannot see it until it is published, then sees it at once', async () => {
    const { merchant, h } = await studio();
    const category = await callTool(merchant, 'create_category', { name: 'News & Updates' });
    expect(category.slug).toBe('news-updates');
    const draft = await callTool(merchant, 'create_post', {
      type: 'post',
      title: 'Summer Opening Hours',
      categoryId: category.id,
      blocks: [
        { type: 'heading', data: { text: 'We are open longer', level: 2 } },
        { type: 'paragraph', data: { text: 'From June we open at 8.' } },
      ],
    });
    expect(draft).toMatchObject({ type: 'post', title: 'Summer Opening Hours', slug: 'summer-opening-hours', status: 'draft', category: { id: category.id } });
    expect(draft.blocks.map((b: any) => [b.type, b.version])).toEqual([
      ['heading', 1],
      ['paragraph', 1],
    ]);
    expect(draft.blocks[0].id).toMatch(/^[0-9a-f-]{36}$/);

    expect((await http(`${P}/cms/posts`, { headers: h })).body.data.items).toEqual([]);
    expect((await http(`${P}/cms/posts/summer-opening-hours`, { headers: h })).status).toBe(404);
    expect((await callTool(merchant, 'list_posts', { status: 'draft' })).items.map((p: any) => p.id)).toEqual([draft.id]);
    expect((await callTool(merchant, 'list_posts', { status: 'published' })).items).toEqual([]);

    const published = await callTool(merchant, 'update_post', { postId: draft.id, status: 'published' });
    expect(published.status).toBe('published');
    expect(published.publishedAt).toBeTruthy();
    const list = await http(`${P}/cms/posts`, { headers: h });
    expect(list.body.data.items.map((p: any) => p.slug)).toEqual(['summer-opening-hours']);
    expect(list.body.data.pagination).toMatchObject({ total: 1, page: 1 });
    const one = await http(`${P}/cms/posts/summer-opening-hours`, { headers: h });
    expect(one.body.data.blocks.map((b: any) => b.data.text)).toEqual(['We are open longer', 'From June we open at 8.']);
    expect((await http(`${P}/cms/posts?search=summer`, { headers: h })).body.data.items).toHaveLength(1);
    expect((await http(`${P}/cms/posts?search=winter`, { headers: h })).body.data.items).toHaveLength(0);
    expect((await callTool(merchant, 'list_posts', { categoryId: category.id, limit: 10, offset: 0 })).items).toHaveLength(1);
    const cats = await http(`${P}/cms/categories`, { headers: h });
    expect(cats.body.data.items.map((c: any) => c.name)).toEqual(['News & Updates']);
    expect((await callTool(merchant, 'get_post', { slug: 'summer-opening-hours' })).id).toBe(draft.id);

    // Another tenant sees nothing of it.
    const other = await studio('Other Content');
    expect((await http(`${P}/cms/posts/summer-opening-hours`, { headers: other.h })).status).toBe(404);
  });

  it('makes readable unique slugs and refuses an explicit slug that exists', async () => {
    const { merchant } = await studio();
    expect((await callTool(merchant, 'create_post', { title: 'Привет мир', blocks: [] })).slug).toBe('привет-мир');
    expect((await callTool(merchant, 'create_post', { title: 'Café Crème' })).slug).toBe('cafe-creme');
    expect((await callTool(merchant, 'create_post', { title: 'Café Crème' })).slug).toBe('cafe-creme-2');
    const taken = await toolError(merchant, 'create_post', { title: 'Other', slug: 'cafe-creme' });
    expect(taken).toMatchObject({ code: 'CONFLICT', details: { field: 'slug' } });
    expect((await toolError(merchant, 'create_post', { title: 'Other', slug: 'Bad Slug!' })).details.field).toBe('slug');
    expect((await toolError(merchant, 'create_post', { title: ' ' })).details.field).toBe('title');
    expect((await toolError(merchant, 'create_post', { title: 'X', type: 'recipe' })).details.field).toBe('type');
  });

  it('appends, reorders and replaces blocks; block data is validated per type', async () => {
    const { merchant } = await studio();
    const post = await callTool(merchant, 'create_post', { title: 'Blocks', blocks: [{ type: 'paragraph', data: { text: 'one' } }] });
    const appended = await callTool(merchant, 'append_post_block', {
      postId: post.id,
      type: 'image',
      props: { url: 'https://cdn.example/a.jpg', alt: 'A chair' },
    });
    expect(appended.blocks[1]).toMatchObject({ type: 'image', version: 1, data: { url: 'https://cdn.example/a.jpg', alt: 'A chair' } });
    const withButton = await callTool(merchant, 'append_post_block', { postId: post.id, type: 'button', props: { text: 'Book now', url: '/book' } });
    const ids = withButton.blocks.map((b: any) => b.id);
    const reordered = await callTool(merchant, 'reorder_post_blocks', { postId: post.id, blockIds: [ids[2], ids[0], ids[1]] });
    expect(reordered.blocks.map((b: any) => b.type)).toEqual(['button', 'paragraph', 'image']);
    expect((await toolError(merchant, 'reorder_post_blocks', { postId: post.id, blockIds: [ids[0], ids[1]] })).details.field).toBe('blockIds');
    expect((await toolError(merchant, 'reorder_post_blocks', { postId: post.id, blockIds: [ids[0], ids[0], ids[1]] })).details.field).toBe('blockIds');

    const replaced = await callTool(merchant, 'replace_post_block', { postId: post.id, index: 1, props: { text: 'one, edited' } });
    expect(replaced.blocks[1]).toEqual({ id: ids[0], version: 2, type: 'paragraph', data: { text: 'one, edited' } });
    const retyped = await callTool(merchant, 'replace_post_block', { postId: post.id, index: 1, type: 'heading', props: { text: 'Now a heading', level: 3 } });
    expect(retyped.blocks[1]).toMatchObject({ id: ids[0], version: 3, type: 'heading' });
    expect((await toolError(merchant, 'replace_post_block', { postId: post.id, index: 7, props: { text: 'x' } })).details.field).toBe('index');

    expect((await toolError(merchant, 'append_post_block', { postId: post.id, type: 'heading', props: { text: 'x', level: 9 } })).details.field).toBe(
      'props.level',
    );
    expect((await toolError(merchant, 'append_post_block', { postId: post.id, type: 'image', props: { url: 'https://x.example/a.png' } })).details.field).toBe(
      'props.alt',
    );
    expect((await toolError(merchant, 'append_post_block', { postId: post.id, type: 'marquee', props: {} })).details.field).toBe('type');
    expect((await toolError(merchant, 'create_post', { title: 'Bad', blocks: [{ type: 'faq', data: { items: [{ question: 'Q?' }] } }] })).details.field).toBe(
      'blocks[0].data.items[0].answer',
    );
    expect((await toolError(merchant, 'append_post_block', { postId: '01900000-0000-7000-8000-000000000000', type: 'divider', props: {} })).code).toBe(
      'NOT_FOUND',
    );
  });

  it('validates custom field values against the post type', async () => {
    const { merchant, h } = await studio();
    const recipe = await callTool(merchant, 'create_post_type', { key: 'recipe', label: 'Recipe' });
    expect((await toolError(merchant, 'create_post_type', { key: 'recipe', label: 'Again' })).code).toBe('CONFLICT');
    await callTool(merchant, 'create_post_type_field', { postTypeId: recipe.id, key: 'minutes', label: 'Minutes', fieldType: 'number', required: true });
    await callTool(merchant, 'create_post_type_field', { postTypeId: recipe.id, key: 'level', label: 'Level', fieldType: 'select', options: ['easy', 'hard'] });
    await callTool(merchant, 'create_post_type_field', { postTypeId: recipe.id, key: 'vegan', label: 'Vegan', fieldType: 'boolean' });
    expect((await toolError(merchant, 'create_post_type_field', { postTypeId: recipe.id, key: 'x', label: 'X', fieldType: 'colour' })).details.field).toBe(
      'fieldType',
    );
    expect((await toolError(merchant, 'create_post_type_field', { postTypeId: recipe.id, key: 'y', label: 'Y', fieldType: 'select' })).details.field).toBe(
      'options',
    );

    const ok = await callTool(merchant, 'create_post', { type: 'recipe', title: 'Soup', fields: { minutes: 20, level: 'easy', vegan: true } });
    expect(ok).toMatchObject({ type: 'recipe', fields: { minutes: 20, level: 'easy', vegan: true } });
    expect((await toolError(merchant, 'create_post', { type: 'recipe', title: 'Stew', fields: { level: 'easy' } })).details.field).toBe('fields.minutes');
    expect((await toolError(merchant, 'create_post', { type: 'recipe', title: 'Stew', fields: { minutes: 'ten' } })).details.field).toBe('fields.minutes');
    expect((await toolError(merchant, 'create_post', { type: 'recipe', title: 'Stew', fields: { minutes: 5, level: 'medium' } })).details.field).toBe(
      'fields.level',
    );
    expect((await toolError(merchant, 'create_post', { type: 'recipe', title: 'Stew', fields: { minutes: 5, colour: 'red' } })).details.field).toBe(
      'fields.colour',
    );
    const updated = await callTool(merchant, 'update_post', { postId: ok.id, fields: { level: 'hard' }, status: 'published' });
    expect(updated.fields).toEqual({ minutes: 20, level: 'hard', vegan: true });
    const { body } = await http(`${P}/cms/posts/soup`, { headers: h });
    expect(body.data.fields.level).toBe('hard');
    expect((await callTool(merchant, 'list_posts', { type: 'recipe' })).items).toHaveLength(1);
  });
});

describe('pages and menus', () => {
  it('publishes pages and serves menus that link only published content to the storefront', async () => {
    const { merchant, h } = await studio();
    const about = await callTool(merchant, 'create_page', {
      title: 'About us',
      blocks: [{ type: 'paragraph', data: { text: 'Since 1999.' } }],
      seoTitle: 'About – Studio',
      seoDescription: 'Who we are',
    });
    expect(about).toMatchObject({ slug: 'about-us', status: 'draft', seoTitle: 'About – Studio' });
    const prices = await callTool(merchant, 'create_page', { title: 'Prices', status: 'published' });
    expect((await http(`${P}/cms/pages`, { headers: h })).body.data.items.map((p: any) => p.slug)).toEqual(['prices']);
    expect((await http(`${P}/cms/pages/about-us`, { headers: h })).status).toBe(404);
    await callTool(merchant, 'update_page', { pageId: about.id, status: 'published' });
    const page = await http(`${P}/cms/pages/about-us`, { headers: h });
    expect(page.body.data).toMatchObject({ title: 'About us', seoDescription: 'Who we are', blocks: [{ type: 'paragraph', data: { text: 'Since 1999.' } }] });

    const draftPost = await callTool(merchant, 'create_post', { title: 'Coming soon' });
    const menu = await callTool(merchant, 'set_menu', {
      location: 'header',
      items: [
        { label: 'Home', url: '/' },
        { label: 'About', pageId: about.id, children: [{ label: 'Prices', pageId: prices.id }] },
        { label: 'Teaser', postId: draftPost.id },
      ],
    });
    expect(menu.items.map((i: any) => i.label)).toEqual(['Home', 'About', 'Teaser']);
    const served = await http(`${P}/cms/menus/header`, { headers: h });
    expect(served.body.data.items.map((i: any) => [i.label, i.href])).toEqual([
      ['Home', '/'],
      ['About', '/about-us'],
    ]);
    expect(served.body.data.items[1].children).toEqual([expect.objectContaining({ label: 'Prices', href: '/prices', slug: 'prices' })]);
    expect((await http(`${P}/cms/menus/footer`, { headers: h })).status).toBe(404);
    expect((await toolError(merchant, 'set_menu', { location: 'header', items: [{ label: 'Both', url: '/', pageId: about.id }] })).details.field).toBe(
      'items[0]',
    );
    const foreign = await callTool((await studio('Foreign pages')).merchant, 'create_page', { title: 'Theirs' });
    expect((await toolError(merchant, 'set_menu', { location: 'header', items: [{ label: 'Theirs', pageId: foreign.id }] })).details.field).toBe('items');
    // Three levels are taken; a fourth is refused at the third level's children.
    const third = { label: 'Gift cards', url: '/prices#gifts' };
    const nested = await callTool(merchant, 'set_menu', {
      location: 'sidebar',
      items: [{ label: 'About', pageId: about.id, children: [{ label: 'Prices', pageId: prices.id, children: [third] }] }],
    });
    expect(nested.items[0].children[0].children).toEqual([expect.objectContaining({ label: 'Gift cards', url: '/prices#gifts' })]);
    const tooDeep = {
      label: 'A',
      url: '/a',
      children: [{ label: 'B', url: '/b', children: [{ label: 'C', url: '/c', children: [{ label: 'D', url: '/d' }] }] }],
    };
    const deepError = await toolError(merchant, 'set_menu', { location: 'sidebar', items: [tooDeep] });
    expect(deepError.details.field).toBe('items[0].children[0].children[0].children');
    expect(deepError.message).toContain('menus nest at most 3 levels');
    // Setting again replaces the menu.
    await callTool(merchant, 'set_menu', { location: 'header', items: [{ label: 'Only', url: '/only' }] });
    expect((await http(`${P}/cms/menus/header`, { headers: h })).body.data.items.map((i: any) => i.label)).toEqual(['Only']);
  });
});

describe('drafts never leak', () => {
  it('on any storefront read route, anonymous or signed in', async () => {
    const { company, merchant, h } = await studio('Leak Check');
    await callTool(merchant, 'create_post', { title: 'Secret post', slug: 'secret-post' });
    const page = await callTool(merchant, 'create_page', { title: 'Secret page', slug: 'secret-page' });
    await callTool(merchant, 'set_menu', { location: 'main', items: [{ label: 'Secret', pageId: page.id }] });
    await callTool(merchant, 'create_event', { title: 'Secret event', slug: 'secret-event', startsAt: '2030-01-01T10:00:00Z', endsAt: '2030-01-01T12:00:00Z' });
    await callTool(merchant, 'create_survey', { title: 'Secret survey', slug: 'secret-survey', questions: [{ type: 'text', label: 'Why?' }] });
    const customer = await signInCustomer(company.companyId);
    for (const headers of [h, { ...h, ...bearer(customer.token) }]) {
      expect((await http(`${P}/cms/posts`, { headers })).body.data.items).toEqual([]);
      expect((await http(`${P}/cms/posts/secret-post`, { headers })).status).toBe(404);
      expect((await http(`${P}/cms/pages`, { headers })).body.data.items).toEqual([]);
      expect((await http(`${P}/cms/pages/secret-page`, { headers })).status).toBe(404);
      expect((await http(`${P}/cms/menus/main`, { headers })).body.data.items).toEqual([]);
      expect((await http(`${P}/events`, { headers })).body.data.items).toEqual([]);
      expect((await http(`${P}/events/secret-event`, { headers })).status).toBe(404);
      expect((await http(`${P}/surveys/secret-survey`, { headers })).status).toBe(404);
    }
  });
});
