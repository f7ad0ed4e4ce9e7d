import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * True when the field being resolved selects nothing beyond `fields` (fragments included), so a
 * resolver can answer from what the request already knows instead of reading the database.
 */
export function selectsOnly(info: GraphQLResolveInfo, fields: ReadonlySet<string>): boolean {
  const visit = (set: SelectionSetNode | undefined, seen: Set<string>): boolean => {
    if (!set) return true;
    return set.selections.every((sel) => {
      if (sel.kind === Kind.FIELD) return sel.name.value === '__typename' || fields.has(sel.name.value);
      if (sel.kind === Kind.INLINE_FRAGMENT) return visit(sel.selectionSet, seen);
      const name = sel.name.value;
      if (seen.has(name)) return true;
      return visit(info.fragments[name]?.selectionSet, new Set([...seen, name]));
    });
  };
  return info.fieldNodes.every((node) => visit(node.selectionSet, new Set()));
}
