import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { notifyError } from '../ui/layout.tsx';
import { NO_VALUE, type FieldInfo, type ProjectViewData, type ViewItem } from './data.ts';

const PUBLISH = `mutation BrowseBoardPublish($id: ID!) { publishInsight(id: $id) { id } }`;
const UNPUBLISH = `mutation BrowseBoardUnpublish($id: ID!) { unpublishInsight(id: $id) { id } }`;
const SET_VALUE = `mutation BrowseBoardSetValue($objectType: FieldValueObjectType!, $objectId: ID!, $fieldId: ID!, $value: JSON, $optionIds: [String!]) {
  setFieldValue(objectType: $objectType, objectId: $objectId, fieldId: $fieldId, value: $value, optionIds: $optionIds) { value } }`;
const TAG = {
  note: {
    add: `mutation BrowseBoardTagNote($id: ID!, $tags: [ID!]!) { tagNote(noteId: $id, tagIds: $tags) { id } }`,
    remove: `mutation BrowseBoardUntagNote($id: ID!, $tags: [ID!]!) { untagNote(noteId: $id, tagIds: $tags) { id } }`,
  },
  highlight: {
    add: `mutation BrowseBoardTagHighlight($id: ID!, $tags: [ID!]!) { tagHighlight(highlightId: $id, tagIds: $tags) { id } }`,
    remove: `mutation BrowseBoardUntagHighlight($id: ID!, $tags: [ID!]!) { untagHighlight(highlightId: $id, tagIds: $tags) { id } }`,
  },
} as const;

/** The grouping a board really uses: the saved one, or published for insights and tags otherwise. */
export function boardKind(view: ProjectViewData): 'SELECT' | 'PERSON' | 'PUBLISHED' | 'TAG' | null {
  return (
    view.group?.kind ?? (view.objectType === 'INSIGHT' ? 'PUBLISHED' : view.objectType === 'HIGHLIGHT' ? 'TAG' : null)
  );
}

/** Whether moving a card between this board's columns can change the grouped value. */
export function canMove(view: ProjectViewData, fields: Map<string, FieldInfo>): boolean {
  const kind = boardKind(view);
  if (!view.canEdit || !kind) return false;
  if (kind === 'TAG') return view.objectType !== 'INSIGHT';
  if (kind === 'SELECT' || kind === 'PERSON') return Boolean(view.group?.fieldId && fields.has(view.group.fieldId));
  return kind === 'PUBLISHED';
}

/**
 * Moving a card from one column to another changes the value the board groups by: publishes or
 * unpublishes an insight, swaps one select option or person for another (the only one, for a
 * single-choice select), or swaps a tag. Into "No value" it takes the old value away.
 */
export function useMoveItem(
  view: ProjectViewData,
  fields: Map<string, FieldInfo>,
): (item: ViewItem, from: string, to: string) => Promise<boolean> {
  const { graphql } = useFieldbook();
  return async (item, from, to) => {
    if (from === to) return false;
    const kind = boardKind(view);
    try {
      if (kind === 'PUBLISHED') {
        await graphql(to === 'published' ? PUBLISH : UNPUBLISH, { id: item.id });
      } else if (kind === 'TAG' && item.kind !== 'insight') {
        const calls = TAG[item.kind];
        if (to !== NO_VALUE) await graphql(calls.add, { id: item.id, tags: [to] });
        if (from !== NO_VALUE) await graphql(calls.remove, { id: item.id, tags: [from] });
      } else if ((kind === 'SELECT' || kind === 'PERSON') && view.group?.fieldId) {
        const field = fields.get(view.group.fieldId)!;
        const current = item.values.get(field.id);
        const ids = Array.isArray(current?.value) ? (current.value as string[]) : [];
        const single = kind === 'SELECT' && field.maxSelectable === 1;
        const next =
          to === NO_VALUE
            ? ids.filter((id) => id !== from)
            : single
              ? [to]
              : [...ids.filter((id) => id !== from && id !== to), to];
        await graphql(SET_VALUE, {
          objectType: item.kind === 'insight' ? 'INSIGHT' : 'NOTE',
          objectId: item.id,
          fieldId: field.id,
          ...(kind === 'SELECT' ? { optionIds: next } : { value: next }),
        });
      } else {
        return false;
      }
      return true;
    } catch (err) {
      notifyError(err, 'The card was not moved');
      return false;
    }
  };
}
