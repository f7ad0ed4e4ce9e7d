import {
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { requestRefused } from './errors.ts';

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
        const measurer = new Measurer(
          doc.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION),
          limits,
        );
        let aliases = 0;
        for (const d of doc.definitions) {
          if (d.kind !== Kind.OPERATION_DEFINITION) continue;
          const m = measurer.selectionSet(d.selectionSet);
          aliases += m.aliases;
          if (m.depth > limits.maxDepth) {
            context.reportError(
              requestRefused(`Query is nested ${m.depth} levels deep; the limit is ${limits.maxDepth}.`),
            );
          }
          if (m.cost > limits.maxCost) {
            context.reportError(requestRefused(`Query selects more than ${limits.maxCost} fields, the limit.`));
          }
        }
        if (aliases > limits.maxAliases) {
          context.reportError(requestRefused(`Query uses ${aliases} aliases; the limit is ${limits.maxAliases}.`));
        }
        return false;
      },
    }),
  ];
}

interface Measure {
  /** Levels of fields below the selection set (0 for leaves only). */
  depth: number;
  aliases: number;
  cost: number;
}

const NOTHING: Measure = { depth: 0, aliases: 0, cost: 0 };

/**
 * Measures selection sets with fragments expanded. Each fragment is measured once and its measure
 * reused wherever it is spread: a fragment spread twice by another, nested level after level,
 * doubles the expanded size at each level, so re-expanding it would take exponential time.
 * Measuring stops as soon as the cost passes the limit, since nothing past it changes the answer.
 */
class Measurer {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly measured = new Map<string, Measure>();
  private readonly inProgress = new Set<string>();

  constructor(
    fragments: readonly FragmentDefinitionNode[],
    private readonly limits: QueryLimits,
  ) {
    for (const f of fragments) this.fragments.set(f.name.value, f);
  }

  selectionSet(set: SelectionSetNode): Measure {
    let depth = 0;
    let aliases = 0;
    let cost = 0;
    for (const sel of set.selections) {
      let sub: Measure;
      if (sel.kind === Kind.FIELD) {
        cost += 1;
        if (sel.alias) aliases += 1;
        sub = sel.selectionSet ? this.selectionSet(sel.selectionSet) : NOTHING;
        // An introspection type's `ofType` chain (NonNull of List of NonNull…) leads to one object
        // per level, never to more: it is not depth that multiplies work, and the standard
        // introspection query nests it 7 levels.
        depth = Math.max(depth, sel.selectionSet ? sub.depth + (sel.name.value === 'ofType' ? 0 : 1) : 0);
      } else {
        sub = sel.kind === Kind.INLINE_FRAGMENT ? this.selectionSet(sel.selectionSet) : this.fragment(sel.name.value);
        depth = Math.max(depth, sub.depth);
      }
      aliases += sub.aliases;
      cost += sub.cost;
      if (cost > this.limits.maxCost) break;
    }
    return { depth, aliases, cost };
  }

  private fragment(name: string): Measure {
    const known = this.measured.get(name);
    if (known) return known;
    const frag = this.fragments.get(name);
    // An unknown fragment or a cycle is reported by GraphQL's own rules; count nothing for it.
    if (!frag || this.inProgress.has(name)) return NOTHING;
    this.inProgress.add(name);
    const m = this.selectionSet(frag.selectionSet);
    this.inProgress.delete(name);
    this.measured.set(name, m);
    return m;
  }
}
