import {
  GraphQLError,
  getNamedType,
  isIntrospectionType,
  type ASTVisitor,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/**
 * Refuses `__schema` and `__type` (and anything reached through them): anonymous introspection is
 * off unless the installation allows it, so a stranger cannot map the API. Signed-in people keep
 * it, so the schema stays browsable in their tools. `__typename` is not introspection of the
 * schema and stays allowed.
 */
export const noAnonymousIntrospection: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  Field(node) {
    const type = getNamedType(context.getType());
    if (type && isIntrospectionType(type)) {
      context.reportError(
        new GraphQLError(`Sign in to read the schema: "${node.name.value}" is not open to anonymous requests.`, {
          nodes: node,
          extensions: { errorCode: 'UNAUTHENTICATED', humanReadable: true },
        }),
      );
      return false;
    }
    return undefined;
  },
});
