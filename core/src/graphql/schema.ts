import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import type { ModuleGraphql } from '../kernel/module.ts';
import { DateTime, JSONScalar } from './scalars.ts';

/** One schema from every module's contribution; modules extend Query and Mutation. */
export function assembleSchema(parts: readonly ModuleGraphql[]): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: parts.map((p) => p.typeDefs),
    resolvers: [{ DateTime, JSON: JSONScalar }, ...parts.map((p) => p.resolvers)],
  });
}
