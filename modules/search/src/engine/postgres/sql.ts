import type { Knex } from 'knex';

/**
 * A piece of SQL with its bindings. Values only ever travel as bindings (`?`); fixed fragments
 * come from `raw`, which is never given request data.
 */
export interface Sql {
  readonly text: string;
  readonly values: readonly unknown[];
}

const isSql = (value: unknown): value is Sql =>
  typeof value === 'object' && value !== null && 'text' in value && 'values' in value && !Array.isArray(value);

/**
 * `sql\`a = ${value}\`` binds `value`; an embedded Sql is spliced in with its own bindings, and a
 * list of strings becomes a text[] value.
 */
export function sql(strings: TemplateStringsArray, ...args: unknown[]): Sql {
  let text = strings[0]!;
  const values: unknown[] = [];
  args.forEach((arg, i) => {
    if (isSql(arg)) {
      text += arg.text;
      values.push(...arg.values);
    } else if (Array.isArray(arg)) {
      // The query builder would spread an array binding into a list; a JSON text binds as one value.
      text += `(array(select jsonb_array_elements_text(?::jsonb)))`;
      values.push(JSON.stringify(arg));
    } else {
      text += '?';
      values.push(arg);
    }
    text += strings[i + 1]!;
  });
  return { text, values };
}

/** Fixed SQL written in this module; `?` in it would be read as a binding, so it has none. */
export function raw(text: string): Sql {
  if (text.includes('?')) throw new Error('Fixed SQL must not contain a question mark.');
  return { text, values: [] };
}

export function join(parts: readonly Sql[], separator: string): Sql {
  return { text: parts.map((p) => p.text).join(separator), values: parts.flatMap((p) => p.values) };
}

/** Runs a statement in the transaction, binding its values. */
export async function query<Row>(trx: Knex.Transaction, statement: Sql): Promise<Row[]> {
  const result = (await trx.raw(statement.text, statement.values as Knex.RawBinding[])) as { rows: Row[] };
  return result.rows;
}
