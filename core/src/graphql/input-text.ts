import {
  Kind,
  type GraphQLError,
  type ASTNode,
  type ASTVisitor,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { cutText } from '../text/cut.ts';
import { findUnstorableText, unstorableText } from '../text/unicode.ts';
import { requestRefused } from './errors.ts';

/**
 * Every text a mutation receives ends up in PostgreSQL, which refuses some strings outright: they
 * are refused here, once for every field of every operation, with the field named, instead of
 * failing deep in a resolver as an internal error. Input nesting is bounded for the same reason:
 * code that walks input recursively must not run out of stack.
 */
export const MAX_INPUT_DEPTH = 256;

/** Paths into deep input are cut: a message names the field, it does not spell out 256 levels. */
const MAX_PATH_LENGTH = 120;

const refusal = (path: string, message: string): GraphQLError => {
  const field = cutText(path, MAX_PATH_LENGTH, '…');
  return requestRefused(`${field} ${message}.`, field);
};

/** Checks request variables; the field is named from the variable down (`input.title`). */
export function checkVariables(variables: Readonly<Record<string, unknown>> | null | undefined): GraphQLError | null {
  if (!variables) return null;
  // The variables object itself is level 0: each variable is at depth 1, as before.
  const found = findUnstorableText(variables, '', MAX_INPUT_DEPTH);
  return found ? refusal(found.path || 'A variable', found.problem) : null;
}

/** The same check over strings written in the document itself, named by argument and field. */
export const storableLiteralText: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  StringValue(node, _key, parent, _path, ancestors) {
    const problem = unstorableText(node.value);
    // `ancestors` stops above the parent, which names the innermost field.
    if (problem) context.reportError(refusal(literalPath([...ancestors, ...(parent ? [parent] : [])]), problem));
  },
  ObjectField(node) {
    const problem = unstorableText(node.name.value);
    if (problem) context.reportError(refusal('A field name', problem));
  },
});

function literalPath(ancestors: ReadonlyArray<ASTNode | readonly ASTNode[]>): string {
  const names: string[] = [];
  for (const a of ancestors) {
    if (Array.isArray(a)) continue;
    const node = a as ASTNode;
    if (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD) names.push(node.name.value);
  }
  return names.join('.') || 'A text';
}
