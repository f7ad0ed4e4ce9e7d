import { Group, MultiSelect, NativeSelect, TextInput } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ListOrder } from '../api.ts';

export const ORDERS: Array<{ value: ListOrder; label: string }> = [
  { value: 'CREATED_DESC', label: 'Newest first' },
  { value: 'CREATED_ASC', label: 'Oldest first' },
  { value: 'TITLE_ASC', label: 'Title A–Z' },
  { value: 'UPDATED_DESC', label: 'Recently updated' },
  { value: 'RANK', label: 'Project order' },
];

/** The server's limits on a list's filters (notes and insights lists). */
const SEARCH_MAX = 200;
const TAGS_MAX = 20;

export interface ListFilterState {
  orderBy: ListOrder;
  search: string;
  tagIds: string[];
}

/**
 * A list's sort, words and tags live in the address (?sort=&q=&tags=), so a reload or a shared
 * link shows the same rows.
 */
export function useListFilters(
  orders: ReadonlyArray<{ value: ListOrder }> = ORDERS,
): [ListFilterState, (patch: Partial<ListFilterState>) => void] {
  const [params, setParams] = useSearchParams();
  const sort = params.get('sort') as ListOrder | null;
  const orderBy = orders.some((o) => o.value === sort) ? sort! : 'CREATED_DESC';
  const search = (params.get('q') ?? '').slice(0, SEARCH_MAX);
  const tagParam = params.get('tags') ?? '';
  const tagIds = useMemo(() => (tagParam ? tagParam.split(',').filter(Boolean).slice(0, TAGS_MAX) : []), [tagParam]);
  const set = (patch: Partial<ListFilterState>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        const put = (key: string, value: string, empty: string) =>
          value && value !== empty ? next.set(key, value) : next.delete(key);
        if (patch.orderBy !== undefined) put('sort', patch.orderBy, 'CREATED_DESC');
        if (patch.search !== undefined) put('q', patch.search, '');
        if (patch.tagIds !== undefined) put('tags', patch.tagIds.join(','), '');
        return next;
      },
      { replace: true },
    );
  return [{ orderBy, search, tagIds }, set];
}

const TAG_CHOICES = `query BrowseListTagChoices($projectId: ID) { tagBoards(projectId: $projectId, includeWorkspace: true) { id projectId title tags { id title } } }`;

/** Sort, a text box for words in the title or text, and a tag picker above a notes or insights list. */
export function ListFilters({
  projectId,
  state,
  onChange,
  what,
  orders = ORDERS,
  placeholder = `Words in the ${what}’ titles or text`,
}: {
  projectId: string;
  state: ListFilterState;
  onChange(patch: Partial<ListFilterState>): void;
  what: string;
  orders?: Array<{ value: ListOrder; label: string }>;
  placeholder?: string;
}) {
  const { graphql } = useFieldbook();
  const [text, setText] = useState(state.search);
  const [tags, setTags] = useState<Array<{ group: string; items: Array<{ value: string; label: string }> }>>([]);

  // Typing settles for a moment before the list reloads.
  useEffect(() => {
    const wanted = text.trim() ? text : '';
    if (wanted === state.search) return;
    const timer = setTimeout(() => onChange({ search: wanted }), 300);
    return () => clearTimeout(timer);
  }, [text, state.search, onChange]);

  useEffect(() => {
    let stale = false;
    graphql<{
      tagBoards: Array<{
        id: string;
        projectId: string | null;
        title: string;
        tags: Array<{ id: string; title: string }>;
      }>;
    }>(TAG_CHOICES, { projectId })
      .then((r) => {
        if (stale) return;
        const boards = [...r.tagBoards]
          .sort((a, b) => Number(b.projectId === projectId) - Number(a.projectId === projectId))
          .filter((b) => b.tags.length);
        setTags(boards.map((b) => ({ group: b.title, items: b.tags.map((t) => ({ value: t.id, label: t.title })) })));
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [graphql, projectId]);

  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        size="xs"
        label="Find"
        placeholder={placeholder}
        leftSection={<IconSearch size={14} aria-hidden />}
        value={text}
        maxLength={SEARCH_MAX}
        onChange={(e) => setText(e.currentTarget.value)}
        w={240}
      />
      <MultiSelect
        size="xs"
        label="Tags"
        placeholder={state.tagIds.length ? undefined : 'Any tag'}
        data={tags}
        value={state.tagIds}
        onChange={(ids) => onChange({ tagIds: ids })}
        maxValues={TAGS_MAX}
        searchable
        clearable
        nothingFoundMessage="No tag has that name"
        w={240}
      />
      <NativeSelect
        size="xs"
        label="Sort"
        data={orders}
        value={state.orderBy}
        onChange={(e) => onChange({ orderBy: e.currentTarget.value as ListOrder })}
        w={160}
      />
    </Group>
  );
}
