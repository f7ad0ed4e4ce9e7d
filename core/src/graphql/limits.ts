import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  /** Upper bound on selected fields, fragments expanded; a simple, predictable cost. */
  maxCost: number;
}

export const DEFAULT_LIMITS: QueryLimits = { maxDepth: 12, maxAliases: 30, maxCost: 5000 };

/** Rejects documents too deep, too aliased or too costly before anything runs. */
export function limitRules(limits: QueryLimits = DEFAULT_LIMITS): ValidationRule[] {
  return [
    (context: ValidationContext): ASTVisitor => ({
      Document(doc) {
        const fragments = new Map<string, FragmentDefinitionNode>();
        for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
        let aliases = 0;
        for (const d of doc.definitions) {
          if (d.kind !== Kind.OPERATION_DEFINITION) continue;
          const m = measure(d.selectionSet, fragments, 0, new Set());
          aliases += m.aliases;
          if (m.depth > limits.maxDepth) {
            context.reportError(new GraphQLError(`Query is nested ${m.depth} levels deep; the limit is ${limits.maxDepth}.`, { extensions: { errorCode: 'BAD_USER_INPUT', humanReadable: true } }));
          }
          if (m.cost > limits.maxCost) {
            context.reportError(new GraphQLError(`Query selects ${m.cost} fields; the limit is ${limits.maxCost}.`, { extensions: { errorCode: 'BAD_USER_INPUT', humanReadable: true } }));
          }
        }
        if (aliases > limits.maxAliases) {
          context.reportError(new GraphQLError(`Query uses ${aliases} aliases; the limit is ${limits.maxAliases}.`, { extensions: { errorCode: 'BAD_USER_INPUT', humanReadable: true } }));
        }
        return false;
      },
    }),
  ];
}

interface Measure {
  depth: number;
  aliases: number;
  cost: number;
}

function measure(
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  depth: number,
  seen: Set<string>,
): Measure {
  let out: Measure = { depth, aliases: 0, cost: 0 };
  for (const sel of set.selections) {
    let sub: Measure | undefined;
    if (sel.kind === Kind.FIELD) {
      out.cost += 1;
      if (sel.alias) out.aliases += 1;
      if (sel.selectionSet) sub = measure(sel.selectionSet, fragments, depth + 1, seen);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      sub = measure(sel.selectionSet, fragments, depth, seen);
    } else {
      const name = sel.name.value;
      const frag = fragments.get(name);
      // A fragment cycle is reported by GraphQL's own rules; stop here rather than loop.
      if (frag && !seen.has(name)) sub = measure(frag.selectionSet, fragments, depth, new Set([...seen, name]));
    }
    if (sub) out = { depth: Math.max(out.depth, sub.depth), aliases: out.aliases + sub.aliases, cost: out.cost + sub.cost };
  }
  return out;
}
