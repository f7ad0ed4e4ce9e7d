import { Checkbox, MultiSelect, Select, TextInput } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useState } from 'react';
import { notifyError } from '../ui/layout.tsx';
import type { FieldInfo, ItemValue, ViewItem } from './data.ts';

const SET_VALUE = `mutation BrowseSetCellValue($objectType: FieldValueObjectType!, $objectId: ID!, $fieldId: ID!, $value: JSON, $optionIds: [String!]) {
  setFieldValue(objectType: $objectType, objectId: $objectId, fieldId: $fieldId, value: $value, optionIds: $optionIds) { value options { id label color } } }`;
const RENAME = {
  note: `mutation BrowseRenameNoteCell($id: ID!, $title: String!) { updateNote(id: $id, input: { title: $title }) { id title } }`,
  insight: `mutation BrowseRenameInsightCell($id: ID!, $title: String!) { updateInsight(id: $id, input: { title: $title }) { id title } }`,
} as const;
const TITLE_MAX = 200;
const TEXT_MAX = 10299;
const NUMERIC = new Set(['NUMBER', 'NPS', 'RATING', 'CSAT', 'ARR']);

/** Sets a field's value on a note or insight; answers the stored value (null when cleared). */
export function useSetValue(): (
  item: ViewItem,
  field: FieldInfo,
  input: { value?: unknown; optionIds?: string[] },
) => Promise<ItemValue | null | undefined> {
  const { graphql } = useFieldbook();
  return async (item, field, input) => {
    try {
      const { setFieldValue } = await graphql<{ setFieldValue: ItemValue | null }>(SET_VALUE, {
        objectType: item.kind === 'insight' ? 'INSIGHT' : 'NOTE',
        objectId: item.id,
        fieldId: field.id,
        ...input,
      });
      return setFieldValue;
    } catch (err) {
      notifyError(err, `${field.label} was not saved`);
      return undefined;
    }
  };
}

interface EditorProps {
  item: ViewItem;
  onDone(change?: (item: ViewItem) => ViewItem): void;
}

/** The title of a note or insight, edited in its cell: Enter saves, Escape cancels. */
export function TitleEditor({ item, onDone }: EditorProps) {
  const { graphql } = useFieldbook();
  const [title, setTitle] = useState(item.title);
  const problem = title.trim().length > TITLE_MAX ? `At most ${TITLE_MAX} characters.` : null;
  const save = async () => {
    const next = title.trim();
    if (problem || next === item.title || item.kind === 'highlight') return onDone();
    try {
      await graphql(RENAME[item.kind], { id: item.id, title: next });
      onDone((it) => ({ ...it, title: next || it.title }));
    } catch (err) {
      notifyError(err, 'The title was not saved');
      onDone();
    }
  };
  return (
    <TextInput
      size="xs"
      aria-label="Title"
      value={title}
      error={problem}
      autoFocus
      onChange={(e) => setTitle(e.currentTarget.value)}
      onBlur={() => void save()}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void save();
        if (e.key === 'Escape') onDone();
      }}
    />
  );
}

/** Several options or people: picked in the list, saved when the editor loses focus. */
function ManyEditor({
  label,
  data,
  initial,
  max,
  onCommit,
}: {
  label: string;
  data: Array<{ value: string; label: string }>;
  initial: string[];
  max: number | null;
  onCommit(picked: string[]): void;
}) {
  const [picked, setPicked] = useState(initial);
  return (
    <MultiSelect
      size="xs"
      aria-label={label}
      data={data}
      value={picked}
      onChange={setPicked}
      searchable
      autoFocus
      defaultDropdownOpened
      maxValues={max ?? undefined}
      onBlur={() => onCommit(picked)}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** A custom field's value, edited in its cell with the input its type needs. */
export function ValueEditor({
  item,
  field,
  members,
  onDone,
}: EditorProps & { field: FieldInfo; members: Map<string, string> }) {
  const setValue = useSetValue();
  const current = item.values.get(field.id);
  const commit = async (input: { value?: unknown; optionIds?: string[] }) => {
    const stored = await setValue(item, field, input);
    if (stored === undefined) return onDone();
    onDone((it) => {
      const values = new Map(it.values);
      if (stored) values.set(field.id, stored);
      else values.delete(field.id);
      return { ...it, values };
    });
  };
  const ids = Array.isArray(current?.value) ? (current.value as string[]) : [];

  if (field.type === 'SELECT') {
    const data = field.options.map((o) => ({ value: o.id, label: o.label }));
    if (field.maxSelectable === 1) {
      return (
        <Select
          size="xs"
          aria-label={field.label}
          data={data}
          defaultValue={ids[0] ?? null}
          clearable
          searchable
          autoFocus
          defaultDropdownOpened
          onChange={(v) => void commit({ optionIds: v ? [v] : [] })}
          onBlur={() => onDone()}
          comboboxProps={{ withinPortal: true }}
        />
      );
    }
    return (
      <ManyEditor
        label={field.label}
        data={data}
        initial={ids}
        max={field.maxSelectable}
        onCommit={(picked) => void commit({ optionIds: picked })}
      />
    );
  }
  if (field.type === 'PERSON') {
    const data = [...members].map(([value, label]) => ({ value, label }));
    return (
      <ManyEditor
        label={field.label}
        data={data}
        initial={ids}
        max={null}
        onCommit={(picked) => void commit({ value: picked })}
      />
    );
  }
  if (field.type === 'BOOLEAN') {
    return (
      <Checkbox
        aria-label={field.label}
        defaultChecked={current?.value === true}
        autoFocus
        onChange={(e) => void commit({ value: e.currentTarget.checked })}
        onBlur={() => onDone()}
      />
    );
  }
  const initial = current ? String(current.value) : '';
  return (
    <TextInput
      size="xs"
      aria-label={field.label}
      defaultValue={field.type === 'DATETIME' ? initial.slice(0, 10) : initial}
      type={
        field.type === 'DATETIME'
          ? 'date'
          : NUMERIC.has(field.type)
            ? 'number'
            : field.type === 'EMAIL'
              ? 'email'
              : field.type === 'URL'
                ? 'url'
                : 'text'
      }
      maxLength={TEXT_MAX}
      autoFocus
      onBlur={(e) => {
        const text = e.currentTarget.value.trim();
        if (text === initial) return onDone();
        void commit({
          value:
            text === ''
              ? null
              : NUMERIC.has(field.type)
                ? Number(text)
                : field.type === 'DATETIME'
                  ? new Date(`${text}T00:00:00Z`).toISOString()
                  : text,
        });
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
        if (e.key === 'Escape') onDone();
      }}
    />
  );
}
