import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';

/**
 * Arguments for any GraphQL field, generated from its input types: mostly plausible values (real
 * ids from the workspace, words, emails, colours) mixed with hostile ones (NUL, lone surrogates,
 * huge strings, deeply nested JSON, nulls where a value is required, values of the wrong type).
 */

/** Ids of real rows the values may point at, so some mutations get past their lookups. */
export interface IdPool {
  ids: readonly string[];
}

/**
 * Values nested deeper than JSON.stringify can write (it runs out of stack): they stand in the
 * generated variables as placeholders, and `serialize` writes them out by hand.
 */
const DEEP: Record<string, string> = {
  '<rich text 20,000 levels deep>': `{"type":"doc","content":[${'{"type":"paragraph","content":['.repeat(20_000)}{"type":"text","text":"deep"}${']}'.repeat(20_000)}]}`,
  '<list 20,000 levels deep>': `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
};

/** The request body for `query` and `variables`, deep placeholders written out. */
export function serialize(query: string, variables: Record<string, unknown>): string {
  let body = JSON.stringify({ query, variables });
  for (const [placeholder, json] of Object.entries(DEEP)) body = body.split(JSON.stringify(placeholder)).join(json);
  return body;
}

export const HOSTILE_STRINGS: readonly string[] = [
  '',
  '   ',
  '\u0000',
  'before\u0000after',
  '\ud800',
  'half \udfff an emoji',
  `${'a'.repeat(199)}😀`,
  '👨‍👩‍👧'.repeat(40),
  'x'.repeat(12_000),
  'y'.repeat(120_000),
  '\u202eevil',
  "'; drop table notes; --",
  '<img src=x onerror=alert(1)>',
  '../../etc/passwd',
  '%00',
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
  '1e309',
  'NaN',
];

const hostileJson: readonly unknown[] = [
  ...Object.keys(DEEP),
  { type: 'doc', content: [null] },
  { type: 'doc', content: 'text' },
  { type: 'doc', content: [{ type: 'text', text: 5 }] },
  { type: 'doc', content: [{ type: 'text', text: '\u0000' }] },
  { type: 'doc', content: [{ type: 'text', text: '\ud800' }] },
  { '\u0000key': 1 },
  { '\udc00': 'x' },
  [null],
  [],
  {},
  'text',
  42,
  true,
];

const words = fc.constantFrom(
  'Onboarding',
  'Pricing',
  'Interview one',
  'SMB, Enterprise',
  'a',
  'Ünïcödé 😀',
  'Tag',
  'Q3 study',
);

function stringArb(name: string, pool: IdPool): fc.Arbitrary<string> {
  const plausible: Array<fc.Arbitrary<string>> = [
    words,
    fc.string({ maxLength: 30 }),
    fc.string({ maxLength: 30, unit: 'binary' }),
  ];
  if (/email/i.test(name))
    plausible.push(fc.constantFrom('someone@example.com', 'Someone@Example.com', 'not an email'));
  if (/colou?r/i.test(name)) plausible.push(fc.constantFrom('#3e63dd', '#fff', 'red'));
  if (/url|link/i.test(name))
    plausible.push(fc.constantFrom('https://example.com/a', 'javascript:alert(1)', 'http://127.0.0.1:5432/'));
  if (/id$|ids$|^id/i.test(name) && pool.ids.length) plausible.push(fc.constantFrom(...pool.ids), fc.uuid());
  return fc.oneof(
    { weight: 3, arbitrary: fc.oneof(...plausible) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  );
}

function scalarArb(typeName: string, name: string, pool: IdPool): fc.Arbitrary<unknown> {
  switch (typeName) {
    case 'String':
      return stringArb(name, pool);
    case 'ID':
      return pool.ids.length
        ? fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...pool.ids) },
            { weight: 1, arbitrary: fc.uuid() },
            { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
          )
        : fc.uuid();
    case 'Int':
      return fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constantFrom(0, -1, 2_147_483_647, -2_147_483_648));
    case 'Float':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 1e308, 5e-324));
    case 'Boolean':
      return fc.boolean();
    case 'DateTime':
      return fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.constantFrom('2025-02-30', 'yesterday', '275760-09-13T00:00:00.001Z', '\u0000'),
      );
    case 'JSON':
      return fc.oneof(
        { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
        { weight: 2, arbitrary: fc.constantFrom(...hostileJson) },
        { weight: 1, arbitrary: stringArb(name, pool) },
      );
    default:
      return fc.oneof(stringArb(name, pool), fc.jsonValue({ maxDepth: 2 }));
  }
}

const wrongType = fc.constantFrom<unknown>(7, true, 'text', [], {}, [null]);

/** A value for `type`; `name` is the argument or input field it is for (it guides plausible strings). */
export function valueArb(type: GraphQLInputType, name: string, pool: IdPool, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) {
    return fc.oneof(
      { weight: 20, arbitrary: valueArb(type.ofType, name, pool, depth) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
  }
  const value = ((): fc.Arbitrary<unknown> => {
    if (isListType(type)) {
      const item = valueArb(type.ofType, name, pool, depth + 1);
      return fc.oneof(
        { weight: 6, arbitrary: fc.array(item, { maxLength: 4 }) },
        { weight: 1, arbitrary: fc.constant([null]) },
      );
    }
    if (isEnumType(type)) {
      return fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)) },
        { weight: 1, arbitrary: fc.constantFrom('NOT_A_VALUE', '\u0000') },
      );
    }
    if (isInputObjectType(type)) {
      if (depth > 5) return fc.constant(null);
      const fields = Object.values(type.getFields());
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const f of fields) model[f.name] = valueArb(f.type, f.name, pool, depth + 1);
      const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
      return fc.record(model, { requiredKeys: required });
    }
    if (isScalarType(type)) return scalarArb(type.name, name, pool);
    return fc.constant(null);
  })();
  return fc.oneof(
    { weight: 12, arbitrary: value },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: wrongType },
  );
}

/** Variables for every argument of `field`; optional ones are sometimes left out. */
export function argumentsArb(
  field: GraphQLField<unknown, unknown>,
  pool: IdPool,
): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const arg of field.args) model[arg.name] = valueArb(arg.type, arg.name, pool);
  const required = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined).map((a) => a.name);
  return fc.record(model, { requiredKeys: required });
}

/** `mutation($a: T!) { field(a: $a) { …scalars } }`: every argument a variable, scalar fields selected one level down. */
export function operationFor(field: GraphQLField<unknown, unknown>, kind: 'query' | 'mutation' = 'mutation'): string {
  const defs = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const named = getNamedType(field.type);
  let selection = '';
  if (!isScalarType(named) && !isEnumType(named)) {
    const subfields = 'getFields' in named ? Object.values(named.getFields()) : [];
    const scalars = subfields.filter(
      (f) =>
        f.args.every((a) => !isNonNullType(a.type)) &&
        (isScalarType(getNamedType(f.type)) || isEnumType(getNamedType(f.type))),
    );
    selection = ` { __typename ${scalars.map((f) => f.name).join(' ')} }`;
  }
  return `${kind}${defs ? `(${defs})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`;
}
