import {
  buildASTSchema,
  concatAST,
  Kind,
  parse,
  validateSchema,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
} from 'graphql';

/** What a plugin's GraphQL declares: its own types, and the Query and Mutation fields it adds. */
export interface PluginSchemaNames {
  types: string[];
  query: string[];
  mutation: string[];
}

/** `notes-relay` → `notesRelay`: how the plugin's Query and Mutation fields must start. */
export const fieldPrefix = (pluginId: string): string =>
  pluginId.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** `notes-relay` → `NotesRelay`: how the plugin's own types must start. */
export const typePrefix = (pluginId: string): string => {
  const camel = fieldPrefix(pluginId);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
};

/**
 * Fieldbook's own scalars, which a plugin's fields may use besides GraphQL's. Nothing else of
 * Fieldbook's schema may be named: core types resolve from core rows, never from a plugin's JSON.
 */
const HOST_SCALARS = /* GraphQL */ `
  scalar DateTime
  scalar JSON
  type Query { _pluginSchemaCheck: Boolean }
  type Mutation { _pluginSchemaCheck: Boolean }
`;

const describeDefinition = (d: DefinitionNode): string => {
  switch (d.kind) {
    case Kind.DIRECTIVE_DEFINITION:
      return `the directive @${d.name.value}`;
    case Kind.SCHEMA_DEFINITION:
    case Kind.SCHEMA_EXTENSION:
      return 'a schema definition';
    case Kind.OPERATION_DEFINITION:
    case Kind.FRAGMENT_DEFINITION:
      return 'an operation';
    default:
      return `${d.kind.endsWith('Extension') ? 'an extension of' : 'the type'} ${d.name.value}`;
  }
};

function refuseDirectives(
  pluginId: string,
  where: string,
  node: { directives?: readonly { name: { value: string } }[] },
): void {
  const first = node.directives?.[0];
  if (first)
    throw new Error(
      `The GraphQL of ${pluginId} uses the directive @${first.name.value} on ${where}; plugins may not use directives.`,
    );
}

function checkFields(
  pluginId: string,
  owner: string,
  fields: readonly (FieldDefinitionNode | InputValueDefinitionNode)[] | undefined,
): void {
  for (const field of fields ?? []) {
    refuseDirectives(pluginId, `${owner}.${field.name.value}`, field);
    if (field.kind === Kind.FIELD_DEFINITION)
      for (const arg of field.arguments ?? [])
        refuseDirectives(pluginId, `${owner}.${field.name.value}(${arg.name.value})`, arg);
  }
}

/**
 * Checks a plugin's `typeDefs` before they join Fieldbook's schema, so that a mistake disables the
 * plugin with its reason instead of stopping the server or changing core types: only
 * `extend type Query` and `extend type Mutation` with fields starting with the plugin's id in
 * camelCase (`slackChannels`), and `type`, `input` and `enum` definitions whose names start with
 * it in PascalCase (`SlackChannel`); no directives, no interfaces, no other type named. Every
 * field added has a resolver, and every resolver a field.
 */
export function checkPluginTypeDefs(
  pluginId: string,
  typeDefs: string,
  resolvers: { query: readonly string[]; mutation: readonly string[] },
): PluginSchemaNames {
  let doc: DocumentNode;
  try {
    doc = parse(typeDefs);
  } catch (err) {
    throw new Error(`The GraphQL of ${pluginId} does not parse: ${err instanceof Error ? err.message : String(err)}`);
  }
  const fields = fieldPrefix(pluginId);
  const types = typePrefix(pluginId);
  const names: PluginSchemaNames = { types: [], query: [], mutation: [] };
  for (const d of doc.definitions) {
    if (d.kind === Kind.OBJECT_TYPE_EXTENSION && (d.name.value === 'Query' || d.name.value === 'Mutation')) {
      refuseDirectives(pluginId, `its extension of ${d.name.value}`, d);
      if (d.interfaces?.length)
        throw new Error(`The GraphQL of ${pluginId} may not make ${d.name.value} implement an interface.`);
      checkFields(pluginId, d.name.value, d.fields);
      for (const field of d.fields ?? []) {
        if (!field.name.value.startsWith(fields))
          throw new Error(
            `The GraphQL field ${d.name.value}.${field.name.value} of ${pluginId} must start with "${fields}".`,
          );
        (d.name.value === 'Query' ? names.query : names.mutation).push(field.name.value);
      }
      continue;
    }
    if (
      d.kind === Kind.OBJECT_TYPE_DEFINITION ||
      d.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION ||
      d.kind === Kind.ENUM_TYPE_DEFINITION
    ) {
      const name = d.name.value;
      if (!name.startsWith(types)) {
        throw new Error(
          `The GraphQL of ${pluginId} declares the type ${name}; a plugin's own types must start with "${types}" (e.g. ${types}Item), and Fieldbook's may only be extended at Query and Mutation.`,
        );
      }
      refuseDirectives(pluginId, `the type ${name}`, d);
      if (d.kind === Kind.OBJECT_TYPE_DEFINITION && d.interfaces?.length)
        throw new Error(`The GraphQL type ${name} of ${pluginId} may not implement an interface.`);
      if (d.kind === Kind.ENUM_TYPE_DEFINITION)
        for (const value of d.values ?? []) refuseDirectives(pluginId, `${name}.${value.name.value}`, value);
      else checkFields(pluginId, name, d.fields);
      names.types.push(name);
      continue;
    }
    throw new Error(
      `The GraphQL of ${pluginId} declares ${describeDefinition(d)}; a plugin may only extend Query and Mutation, and declare type, input and enum definitions whose names start with "${types}".`,
    );
  }
  // GraphQL's own checks, on the plugin's part alone: unknown or repeated types, an input type used
  // as a field's result, and the like, named before they could stop the whole schema from building.
  try {
    const schema = buildASTSchema(concatAST([parse(HOST_SCALARS), doc]));
    const problems = validateSchema(schema);
    if (problems.length) throw new Error(problems.map((p) => p.message).join(' '));
  } catch (err) {
    throw new Error(`The GraphQL of ${pluginId} is invalid: ${err instanceof Error ? err.message : String(err)}`);
  }
  for (const [root, declared, given] of [
    ['Query', names.query, resolvers.query],
    ['Mutation', names.mutation, resolvers.mutation],
  ] as const) {
    const unresolved = declared.filter((f) => !given.includes(f));
    if (unresolved.length)
      throw new Error(
        `The GraphQL field ${root}.${unresolved[0]} of ${pluginId} has no resolver in graphql.${root.toLowerCase()}.`,
      );
    const undeclared = given.filter((f) => !declared.includes(f));
    if (undeclared.length)
      throw new Error(
        `The resolver graphql.${root.toLowerCase()}.${undeclared[0]} of ${pluginId} has no field in its typeDefs (extend type ${root}).`,
      );
  }
  return names;
}
