import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Drawer,
  Group,
  NativeSelect,
  Popover,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { ChoiceCache, ChoiceContext, FilterBuilder } from '@fieldbook/search/web/filter';
import type { FilterForm } from '@fieldbook/search/filters';
import { IconArrowsSort, IconColumns, IconFilter, IconLayoutColumns, IconPlus, IconX } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useCan } from '../ui/hooks.ts';
import { notifyError } from '../ui/layout.tsx';
import { columnChoices, sortChoices, tableColumns } from './columns.ts';
import { boardColumns } from './BoardLayout.tsx';
import type { FieldInfo, ProjectViewData, ViewItem } from './data.ts';

const UPDATE = `mutation BrowseSaveViewSettings($id: ID!, $input: UpdateProjectViewInput!) { updateProjectView(id: $id, input: $input) { id } }`;

/** Saves some of a view's settings (keys left out keep theirs) and reloads the view. */
export function useSaveView(
  view: ProjectViewData,
  onSaved: () => void,
): (input: Record<string, unknown>) => Promise<boolean> {
  const { graphql } = useFieldbook();
  return async (input) => {
    try {
      await graphql(UPDATE, { id: view.id, input });
      onSaved();
      return true;
    } catch (err) {
      notifyError(err, 'The view was not saved');
      return false;
    }
  };
}

interface ToolbarProps {
  view: ProjectViewData;
  fields: Map<string, FieldInfo>;
  members: Map<string, string>;
  items: ViewItem[] | null;
  onSaved(): void;
}

function SortControl({
  view,
  fields,
  save,
}: {
  view: ProjectViewData;
  fields: Map<string, FieldInfo>;
  save: (input: Record<string, unknown>) => Promise<boolean>;
}) {
  const choices = sortChoices(view.objectType, fields);
  const used = new Set(view.sort.map((s) => s.field));
  const free = choices.filter((c) => !used.has(c.field));
  const put = (sort: ProjectViewData['sort']) => void save({ sort });
  return (
    <Popover position="bottom-start" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button
          variant="default"
          size="compact-sm"
          leftSection={<IconArrowsSort size={14} aria-hidden />}
          rightSection={
            view.sort.length ? (
              <Badge size="xs" circle>
                {view.sort.length}
              </Badge>
            ) : null
          }
        >
          Sort
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" w={340} component="section" aria-label="Sort">
          {!view.sort.length && (
            <Text size="sm" c="dimmed">
              Newest first. Add a field to sort by.
            </Text>
          )}
          {view.sort.map((s, i) => (
            <Group key={s.field} gap={6} wrap="nowrap">
              <NativeSelect
                aria-label={`Sort field ${i + 1}`}
                size="xs"
                style={{ flex: 1 }}
                data={[
                  { value: s.field, label: choices.find((c) => c.field === s.field)?.label ?? s.field },
                  ...free.map((c) => ({ value: c.field, label: c.label })),
                ]}
                value={s.field}
                disabled={!view.canEdit}
                onChange={(e) => put(view.sort.map((x, j) => (j === i ? { ...x, field: e.currentTarget.value } : x)))}
              />
              <NativeSelect
                aria-label={`Sort direction ${i + 1}`}
                size="xs"
                data={[
                  { value: 'ASC', label: 'Ascending' },
                  { value: 'DESC', label: 'Descending' },
                ]}
                value={s.direction}
                disabled={!view.canEdit}
                onChange={(e) =>
                  put(
                    view.sort.map((x, j) =>
                      j === i ? { ...x, direction: e.currentTarget.value as 'ASC' | 'DESC' } : x,
                    ),
                  )
                }
              />
              {view.canEdit && (
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={`Stop sorting by ${choices.find((c) => c.field === s.field)?.label ?? s.field}`}
                  onClick={() => put(view.sort.filter((_, j) => j !== i))}
                >
                  <IconX size={14} aria-hidden />
                </ActionIcon>
              )}
            </Group>
          ))}
          {view.canEdit && free.length > 0 && view.sort.length < 10 && (
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => put([...view.sort, { field: free[0]!.field, direction: 'ASC' }])}
            >
              Add sort
            </Button>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

const EMPTY_FILTER: FilterForm = { combinator: 'and', forms: [] };

function FilterControl({
  view,
  save,
}: {
  view: ProjectViewData;
  save: (input: Record<string, unknown>) => Promise<boolean>;
}) {
  const { graphql } = useFieldbook();
  const can = useCan();
  const cache = useMemo(() => new ChoiceCache(graphql), [graphql]);
  const [open, setOpen] = useState(false);
  const saved = (view.filter as FilterForm | null) ?? EMPTY_FILTER;
  const [draft, setDraft] = useState<FilterForm>(saved);
  const count = saved.forms.filter((f) => !f.hidden).length;
  return (
    <>
      <Button
        variant="default"
        size="compact-sm"
        leftSection={<IconFilter size={14} aria-hidden />}
        rightSection={
          count ? (
            <Badge size="xs" circle>
              {count}
            </Badge>
          ) : null
        }
        onClick={() => (setDraft(saved), setOpen(true))}
      >
        Filter
      </Button>
      <Drawer opened={open} onClose={() => setOpen(false)} title="Filter this view" position="right" size="lg">
        <ChoiceContext.Provider value={cache}>
          <Stack>
            <FilterBuilder filter={draft} onChange={setDraft} can={can} />
            {view.canEdit && (
              <Group justify="flex-end">
                <Button
                  onClick={() =>
                    void save({ filter: draft.forms.length ? draft : null }).then((ok) => ok && setOpen(false))
                  }
                >
                  Apply filter
                </Button>
              </Group>
            )}
          </Stack>
        </ChoiceContext.Provider>
      </Drawer>
    </>
  );
}

/** Group kinds (002 §2): published for insights, tags for notes and highlights, and select or person fields. */
function groupChoices(view: ProjectViewData, fields: Map<string, FieldInfo>): Array<{ value: string; label: string }> {
  const out = [{ value: '', label: 'No grouping' }];
  if (view.objectType === 'INSIGHT') out.push({ value: 'PUBLISHED:', label: 'Published' });
  if (view.objectType !== 'INSIGHT') out.push({ value: 'TAG:', label: 'Tags' });
  for (const f of fields.values())
    if (f.type === 'SELECT' || f.type === 'PERSON') out.push({ value: `${f.type}:${f.id}`, label: f.label });
  return out;
}

function GroupControl({
  view,
  fields,
  members,
  items,
  save,
}: ToolbarProps & { save: (input: Record<string, unknown>) => Promise<boolean> }) {
  const choices = groupChoices(view, fields);
  const value = view.group ? `${view.group.kind}:${view.group.fieldId ?? ''}` : '';
  // Every column the grouping makes, hidden ones too, so they can be shown again.
  const all = items
    ? boardColumns({ ...view, hiddenOptions: [], hideUncategorized: false }, items, fields, members).filter(
        (c) => c.key !== '__none__',
      )
    : [];
  const hidden = new Set(view.hiddenOptions);
  return (
    <Popover position="bottom-start" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default" size="compact-sm" leftSection={<IconLayoutColumns size={14} aria-hidden />}>
          Group{view.group ? `: ${choices.find((c) => c.value === value)?.label ?? view.group.kind.toLowerCase()}` : ''}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm" w={300} component="section" aria-label="Grouping">
          <NativeSelect
            label="Group by"
            data={choices}
            value={value}
            disabled={!view.canEdit}
            onChange={(e) => {
              const [kind, fieldId] = e.currentTarget.value.split(':');
              void save({ group: kind ? { kind, fieldId: fieldId || null } : null, hiddenOptions: [] });
            }}
          />
          <Switch
            label="Hide uncategorized"
            description="Leave out the column of items without a value"
            checked={view.hideUncategorized}
            disabled={!view.canEdit}
            onChange={(e) => void save({ hideUncategorized: e.currentTarget.checked })}
          />
          {all.length > 0 && (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Columns shown
              </Text>
              {all.map((c) => (
                <Checkbox
                  key={c.key}
                  size="xs"
                  label={c.title}
                  checked={!hidden.has(c.key)}
                  disabled={!view.canEdit}
                  onChange={(e) =>
                    void save({
                      hiddenOptions: e.currentTarget.checked
                        ? view.hiddenOptions.filter((k) => k !== c.key)
                        : [...view.hiddenOptions, c.key],
                    })
                  }
                />
              ))}
            </Stack>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** TABLE: which columns show, in order; cards: which fields they show (field visibility). */
function FieldsControl({
  view,
  fields,
  save,
}: {
  view: ProjectViewData;
  fields: Map<string, FieldInfo>;
  save: (input: Record<string, unknown>) => Promise<boolean>;
}) {
  const choices = columnChoices(view.objectType, fields);
  const isTable = view.layout === 'TABLE';
  const shown = isTable
    ? new Set(tableColumns(view).map((c) => c.field))
    : new Set(choices.map((c) => c.field).filter((f) => !view.hiddenFields.includes(f)));
  const toggle = (field: string, on: boolean) => {
    if (!isTable) {
      void save({ hiddenFields: on ? view.hiddenFields.filter((f) => f !== field) : [...view.hiddenFields, field] });
      return;
    }
    const current = tableColumns(view);
    const columns = on
      ? [...current, { field, width: null, sticky: false, wrapped: false }]
      : current.filter((c) => c.field !== field);
    void save({ columns, hiddenFields: view.hiddenFields.filter((f) => f !== field) });
  };
  return (
    <Popover position="bottom-start" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default" size="compact-sm" leftSection={<IconColumns size={14} aria-hidden />}>
          {isTable ? 'Columns' : 'Fields'}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={6} w={260} component="section" aria-label={isTable ? 'Columns' : 'Fields shown on cards'}>
          <Text size="xs" c="dimmed">
            {isTable ? 'Columns of the table. Resize, pin and wrap them from their headers.' : 'What each card shows.'}
          </Text>
          {choices.map((c) => (
            <Checkbox
              key={c.field}
              size="xs"
              label={c.label}
              checked={shown.has(c.field)}
              disabled={!view.canEdit}
              onChange={(e) => toggle(c.field, e.currentTarget.checked)}
            />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** The view's settings above it (002 §2), each saved as it changes for everyone who opens the view. */
export function ViewToolbar(props: ToolbarProps) {
  const { view, fields, onSaved } = props;
  const save = useSaveView(view, onSaved);
  if (view.layout === 'CANVAS') return null;
  return (
    <Group gap="xs" mb="sm" role="toolbar" aria-label="View settings">
      <FilterControl view={view} save={save} />
      <SortControl view={view} fields={fields} save={save} />
      {view.layout !== 'TABLE' && <GroupControl {...props} save={save} />}
      <FieldsControl view={view} fields={fields} save={save} />
    </Group>
  );
}
