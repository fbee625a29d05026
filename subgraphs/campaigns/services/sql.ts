import type { RequestContext } from '../../kernel/context.ts';

/**
 * A tenant statement put together piece by piece (a segment's rules decide its conditions), run
 * through `ctx.tenantSql`, so it is still refused unless scoped with `COMPANY`.
 */
export class Statement {
  private readonly strings: string[] = [''];
  private readonly values: unknown[] = [];

  text(text: string): this {
    this.strings[this.strings.length - 1] += text;
    return this;
  }

  /** A parameter (an array becomes a list, as in tenantSql). */
  value(value: unknown): this {
    this.values.push(value);
    this.strings.push('');
    return this;
  }

  append(other: Statement): this {
    other.strings.forEach((s, i) => {
      this.text(s);
      if (i < other.values.length) this.value(other.values[i]);
    });
    return this;
  }

  run<R = any>(ctx: RequestContext): Promise<R[]> {
    const strings = Object.assign([...this.strings], { raw: [...this.strings] }) as unknown as TemplateStringsArray;
    return ctx.tenantSql<R>(strings, ...this.values);
  }
}

export const sql = (text = '') => new Statement().text(text);
