import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastCode } from '../support/client.ts';
import { callTool, mcpClient } from '../support/mcp.ts';
import { signInCustomer, signupCompany, type Company } from '../support/fixtures.ts';
import { testServer } from '../support/server.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** A curl command of a document, with the statuses its text promises (`# → 201 …`; else any 2xx). */
interface Example {
  line: number;
  command: string;
  statuses: number[];
  /** The `# → …` line after it, as written ('' without one). */
  promise: string;
}

/** The curl commands of a Markdown file's shell blocks (```sh, bash or shell, indented in a list too), continuation lines joined, comments apart. */
function examplesOf(file: string): Example[] {
  const raw = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const lines: string[] = [];
  const inShell: boolean[] = [];
  // Each line of a shell block without the block's indentation; a line outside one stays as it is, unused.
  let indent: string | null = null;
  for (const line of raw) {
    const fence = /^(\s*)```(\w*)\s*$/.exec(line);
    if (fence) indent = indent === null && ['sh', 'bash', 'shell'].includes(fence[2]) ? fence[1] : null;
    const inside = indent !== null && !fence;
    lines.push(inside && line.startsWith(indent!) ? line.slice(indent!.length) : line);
    inShell.push(inside);
  }
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!inShell[i] || !lines[i].startsWith('curl ')) {
      const promised = inShell[i] && /^# → (.*)$/.exec(lines[i]);
      if (promised && examples.length) {
        const statuses = [...promised[1].matchAll(/\b([1-5]\d\d)\b/g)].map((m) => Number(m[1]));
        // "201 { … }; 409 SLOT_TAKEN if someone was faster": every status named is an answer the text allows.
        if (statuses.length) examples[examples.length - 1].statuses = statuses;
        examples[examples.length - 1].promise = promised[1];
      }
      continue;
    }
    const start = i;
    let command = lines[i];
    // Continuation lines stay as written: bash reads a backslash-newline, or a newline inside
    // single quotes (a JSON body over several lines), as part of the command.
    const open = (text: string) => (text.match(/'/g)?.length ?? 0) % 2 === 1;
    while (command.endsWith('\\') || open(command)) command = `${command}\n${lines[++i]}`;
    // A trailing remark ("   # the 6-digit code") is not part of the command.
    command = command.replace(/\s{2,}#[^'"]*$/, '');
    examples.push({ line: start + 1, command, statuses: [], promise: '' });
  }
  return examples;
}

/** Runs a command as a shell would, with these variables; its body (JSON when it is) and status. */
async function curl(command: string, base: string, env: Record<string, string>): Promise<{ status: number; body: any }> {
  const text = command.replaceAll('localhost:4000', base).replaceAll('{base_url}', base);
  const { stdout } = await run('bash', ['-c', `${text} -w '\\n%{http_code}'`], { env: { ...process.env, ...env } });
  const at = stdout.lastIndexOf('\n');
  const raw = stdout.slice(0, at);
  let body: any = raw;
  try {
    body = JSON.parse(raw);
  } catch {}
  return { status: Number(stdout.slice(at + 1)), body };
}

/** A Tuesday at least a week ahead (the walk-through books a Tuesday: 2026-12-01 as written). */
function aTuesdayAhead(): string {
  const d = new Date(Date.now() + 7 * 86_400_000);
  while (d.getUTCDay() !== 2) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The walk-throughs guide: its tool steps make what its curl commands use (its own setup below). */
const WALK_THROUGHS = 'docs/guides/walk-throughs.md';

/** Every Markdown file under docs/ whose `sh` blocks hold curl commands (README.md and the walk-throughs have their own setup). */
const GUIDES_WITH_EXAMPLES = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f.split(sep).join('/')}`)
  .filter((file) => file !== WALK_THROUGHS && examplesOf(file).length > 0)
  .sort();

const expectAnswer = (example: Example, answer: { status: number; body: any }) => {
  const where = `line ${example.line}: ${example.command.split('\n')[0]} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
  if (example.statuses.length) expect(example.statuses, where).toContain(answer.status);
  else expect(answer.status >= 200 && answer.status < 300, where).toBe(true);
  // MCP answers a refused tool call with 200 too: a JSON-RPC error or an isError result is a failure
  // unless the text says that is the answer.
  if (/\/mcp\b/.test(example.command) && answer.status === 200 && !/isError|error/.test(example.promise)) {
    expect(answer.body?.error, where).toBeUndefined();
    expect(answer.body?.result?.isError ?? false, where).toBe(false);
  }
};

/** The section of a Markdown text under a `## ` heading starting with `heading`, up to the next one. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}`);
  expect(start, `section "## ${heading}"`).toBeGreaterThan(-1);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/**
 * Every curl example of the README and the guides runs as written: the same command through a
 * shell and curl, against a test server, with the values a reader would put in (the address, the
 * ids, codes and tokens earlier steps gave, a date still ahead), answering what the text promises.
 */
describe('the curl examples of the README and the guides', () => {
  let base: string;
  beforeAll(async () => {
    base = (await testServer()).url;
  });

  /**
   * Runs a file's examples in order, putting in what a reader would: the date, the signup's
   * requestId, the last emailed code, and the tokens the sign-in steps answered (`TOKEN`,
   * `NEW_TOKEN`); `fill` and `after` add a file's own.
   */
  async function runAll(
    file: string,
    env: Record<string, string>,
    fill: (command: string) => string = (c) => c,
    after: (example: Example, body: any) => void = () => {},
  ) {
    const examples = examplesOf(file);
    expect(examples.length, `${file} has curl examples`).toBeGreaterThan(0);
    const day = aTuesdayAhead();
    let requestId = '';
    let since = Date.now();
    for (const example of examples) {
      let text = fill(example.command).replaceAll('2026-12-01', day).replace('"requestId":"…"', `"requestId":"${requestId}"`);
      if (text.includes('"code":"123456"')) {
        const to = /"email":"([^"]+)"/.exec(text)?.[1] ?? 'owner@example.com';
        text = text.replace('"code":"123456"', `"code":"${await lastCode(to, since)}"`);
      }
      if (/\/(signup|otp)\b/.test(text) && !text.includes('verify')) since = Date.now();
      const answer = await curl(text, base, env);
      expectAnswer(example, answer);
      const body = answer.body;
      if (body?.data?.requestId) requestId = body.data.requestId;
      if (example.command.includes('/auth/otp/verify')) env.TOKEN = body.data.token;
      if (example.command.includes('/auth/refresh')) env.NEW_TOKEN = body.data.token;
      after(example, body);
    }
  }

  it('README: signup, then the MCP, REST and GraphQL walk-throughs in order', async () => {
    const company: Company = await signupCompany('README Studio');
    const env: Record<string, string> = { C: company.companyId, KEY: company.apiKey };
    await runAll('README.md', env, undefined, (example, body) => {
      // The agent's product is the one the storefront orders.
      if (example.command.includes('"name":"create_product"')) env.PRODUCT = body.result.structuredContent.id;
    });
    expect(env.PRODUCT, 'the README makes a product over MCP').toBeDefined();
    // What the README promises the GraphQL query shows: the order the storefront placed.
    const orders = await curl(examplesOf('README.md').find((e) => e.command.includes('/graphql'))!.command, base, env);
    expect(orders.body.data.orders.items).toEqual([expect.objectContaining({ number: 1, total: { amount: '25.00', currency: expect.any(String) } })]);
  }, 60_000);

  it('the walk-throughs: booking, content, shop, loyalty and campaigns', async () => {
    const guide = readFileSync(join(ROOT, WALK_THROUGHS), 'utf8');
    const company: Company = await signupCompany('Walk-through Studio');
    // The walk-throughs' company is the demo one, in New York.
    const key = { authorization: `Bearer ${company.apiKey}` };
    await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...key },
      body: JSON.stringify({ query: 'mutation { updateCompanySettings(input: { timeZone: "America/New_York" }) { id } }' }),
    });
    // The booking's tool steps ("1. `tool` → `{ … }`"), in order, with the guide's own arguments:
    // M and S are the ids the steps before gave, the date one still ahead.
    const agent = await mcpClient(company.apiKey);
    const day = aTuesdayAhead();
    const booking = section(guide, 'Booking');
    const steps = [...booking.matchAll(/^\d+\. `(\w+)` → `(\{[^`]*\})`/gm)];
    expect(steps.map((s) => s[1])).toEqual(['create_staff_member', 'set_staff_availability', 'create_service', 'get_available_slots']);
    const ids: Record<string, string> = {};
    let slots: { start: string }[] = [];
    for (const [, tool, json] of steps) {
      const args = JSON.parse(
        json
          .replace(/\b([MS])\b(?=\s*[,\]}])/g, (_, id: string) => JSON.stringify(ids[id]))
          .replace(/2026-12-01/g, day)
          .replace(/2026-12-07/g, day),
      );
      const result = await callTool(agent, tool, args);
      if (tool === 'create_staff_member') ids.M = result.id;
      if (tool === 'create_service') ids.S = result.id;
      if (tool === 'get_available_slots') slots = result.items;
    }
    // The time the storefront books is one of the slots the staff hours give that day.
    const booked = /"occurrenceStart":"2026-12-01(T[^"]+)"/.exec(booking)![1];
    expect(slots.map((s) => new Date(s.start).toISOString())).toContain(`${day}${booked}`);
    await callTool(agent, 'create_post', {
      type: 'post',
      title: 'Summer opening hours',
      blocks: [{ type: 'paragraph', data: { text: 'From June we open at 8.' } }],
    }).then((post) => callTool(agent, 'update_post', { postId: post.id, status: 'published' }));
    // The shop's product, promotion and validation, as its tool lines make them.
    const shop = section(guide, 'Shop');
    const mug = await callTool(agent, 'create_product', JSON.parse(/create_product\s+(\{.*\})\s+→/.exec(shop)![1]));
    await callTool(agent, 'create_promotion', JSON.parse(/create_promotion\s+(\{.*\})\n/.exec(shop)![1]));
    const validation = /validate_promotion\s+(\{.*\})\s+→ \{ "isValid": (\w+), "discountAmount": \{ "amount": "([\d.]+)"/.exec(shop)!;
    expect(await callTool(agent, 'validate_promotion', JSON.parse(validation[1]))).toMatchObject({
      isValid: validation[2] === 'true',
      discountAmount: { amount: validation[3] },
      errorCode: null,
    });
    // The loyalty gift, as its tool line makes it.
    const gift = await callTool(agent, 'create_gift_offer', JSON.parse(/create_gift_offer\s+(\{.*\})\s+→/.exec(section(guide, 'Loyalty'))![1]));
    // The campaign's tool steps, with the ids they give.
    const campaignIds: Record<string, string> = {};
    for (const [, tool, json] of section(guide, 'Campaigns').matchAll(/^(\w+)\s+(\{.*?\})(?:\s+→.*)?$/gm)) {
      const result = await callTool(agent, tool, JSON.parse(json.replace(/"(SEGMENT|CAMPAIGN)"/g, (_, id: string) => JSON.stringify(campaignIds[id]))));
      if (tool === 'create_customer_segment') campaignIds.SEGMENT = result.id;
      if (tool === 'create_campaign') campaignIds.CAMPAIGN = result.id;
    }
    expect(Object.keys(campaignIds)).toEqual(['SEGMENT', 'CAMPAIGN']);
    await agent.close();

    const customer = await signInCustomer(company.companyId);
    await runAll(WALK_THROUGHS, {
      C: company.companyId,
      S: ids.S,
      PRODUCT: mug.id,
      GIFT: gift.id,
      CUSTOMER_TOKEN: customer.token,
      CAMPAIGN: campaignIds.CAMPAIGN,
      KEY: company.apiKey,
    });
  }, 120_000);

  it('every guide with curl examples is run here', () => {
    expect(GUIDES_WITH_EXAMPLES).toEqual(
      expect.arrayContaining(['docs/guides/sign-in.md', 'docs/guides/merchant-signup.md', 'docs/guides/safe-writes.md', 'docs/api/rest.md', 'docs/api/mcp.md']),
    );
  });

  // Every other file of docs/ with curl examples, as it is found: a company with a service bookable any day, its id and API key.
  it.each(GUIDES_WITH_EXAMPLES)(
    '%s',
    async (file) => {
      const company = await signupCompany(`Guide ${file}`);
      const agent = await mcpClient(company.apiKey);
      const staff = await callTool(agent, 'create_staff_member', { name: 'Mia' });
      for (let dayOfWeek = 0; dayOfWeek < 7; dayOfWeek++)
        await callTool(agent, 'set_staff_availability', { memberId: staff.id, dayOfWeek, startTime: '00:00', endTime: '23:59' });
      const service = await callTool(agent, 'create_service', { name: 'Haircut', durationMinutes: 60, price: '49.00', capacity: 1, staffIds: [staff.id] });
      await agent.close();
      await runAll(file, { C: company.companyId, COMPANY_ID: company.companyId, KEY: company.apiKey }, (command) =>
        command.replace('"serviceId":"…"', `"serviceId":"${service.id}"`),
      );
    },
    60_000,
  );
});
