import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

export const DateTime = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An ISO 8601 date-time.',
  serialize: (v) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString()),
  parseValue: (v) => parseDate(v),
  parseLiteral: (ast) => (ast.kind === Kind.STRING ? parseDate(ast.value) : invalid('DateTime')),
});

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: (ast) => literal(ast),
});

function parseDate(v: unknown): Date {
  const d = new Date(String(v));
  if (typeof v !== 'string' || Number.isNaN(d.getTime())) throw new GraphQLError('Dates must be ISO 8601.');
  return d;
}

function invalid(name: string): never {
  throw new GraphQLError(`Invalid ${name} literal.`);
}

function literal(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.LIST:
      return ast.values.map(literal);
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value)]));
    default:
      return null;
  }
}
