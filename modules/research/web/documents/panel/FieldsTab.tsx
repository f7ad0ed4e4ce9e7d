import { Alert, Loader, MultiSelect, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useEffect, useState } from 'react';
import { FIELDS_QUERY, MEMBERS, SET_FIELD_VALUE, type Field, type FieldValue, type Member } from '../api.ts';
import { errorMessage } from '../errors.ts';
import { EmptyState } from './EmptyState.tsx';

const SCORES: Partial<Record<Field['type'], [number, number]>> = { NPS: [0, 10], RATING: [1, 5], CSAT: [1, 5] };

/** One field's input: saved when it changes (choices) or when the person leaves it (text). */
function FieldInput({
  field,
  value,
  options,
  disabled,
  members,
  onSave,
}: {
  field: Field;
  value: unknown;
  options: string[];
  disabled: boolean;
  members: Member[];
  onSave: (value: unknown, optionIds?: string[]) => Promise<string | null>;
}) {
  const [draft, setDraft] = useState<string>(value === null || value === undefined ? '' : String(value));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setDraft(value === null || value === undefined ? '' : String(value)), [value]);
  const save = async (v: unknown, optionIds?: string[]) => setError(await onSave(v, optionIds));
  const common = { label: field.label, disabled, error };

  switch (field.type) {
    case 'BOOLEAN':
      return (
        <Switch
          label={field.label}
          disabled={disabled}
          checked={value === true}
          onChange={(e) => void save(e.currentTarget.checked)}
          error={error}
        />
      );
    case 'SELECT':
      return (
        <MultiSelect
          {...common}
          data={field.options.map((o) => ({ value: o.id, label: o.label }))}
          value={options}
          maxValues={field.maxSelectable ?? undefined}
          searchable
          placeholder={options.length ? undefined : 'Choose'}
          onChange={(ids) => void save(null, ids)}
        />
      );
    case 'PERSON':
      return (
        <MultiSelect
          {...common}
          data={members.map((m) => ({ value: m.id, label: m.name || m.email }))}
          value={Array.isArray(value) ? (value as string[]) : []}
          searchable
          placeholder="Choose people"
          onChange={(ids) => void save(ids)}
        />
      );
    case 'NUMBER':
    case 'ARR':
    case 'NPS':
    case 'RATING':
    case 'CSAT': {
      const range = SCORES[field.type];
      return (
        <NumberInput
          {...common}
          value={draft === '' ? '' : Number(draft)}
          min={range?.[0]}
          max={range?.[1]}
          allowDecimal={!range}
          onChange={(v) => setDraft(v === '' ? '' : String(v))}
          onBlur={() => draft !== String(value ?? '') && void save(draft === '' ? null : Number(draft))}
        />
      );
    }
    case 'DATETIME':
      return (
        <TextInput
          {...common}
          type="date"
          value={draft.slice(0, 10)}
          onChange={(e) => setDraft(e.currentTarget.value)}
          onBlur={() => draft.slice(0, 10) !== String(value ?? '').slice(0, 10) && void save(draft || null)}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          type={
            field.type === 'EMAIL' ? 'email' : field.type === 'URL' ? 'url' : field.type === 'PHONE' ? 'tel' : 'text'
          }
          value={draft}
          onChange={(e) => setDraft(e.currentTarget.value)}
          onBlur={() => draft !== String(value ?? '') && void save(draft.trim() || null)}
        />
      );
  }
}

/** The custom fields of a note or insight (its project's and the workspace's) and their values. */
export function FieldsTab({
  kind,
  objectId,
  projectId,
  canEdit,
}: {
  kind: 'note' | 'insight';
  objectId: string;
  projectId: string;
  canEdit: boolean;
}) {
  const host = useFieldbook();
  const type = kind === 'note' ? 'NOTE' : 'INSIGHT';
  const q = useGraphQL<{ own: Field[]; workspace: Field[]; fieldValues: FieldValue[] }>(FIELDS_QUERY, {
    objectType: type,
    projectId,
    valueType: type,
    objectId,
  });
  const needsMembers = (q.data?.own ?? []).concat(q.data?.workspace ?? []).some((f) => f.type === 'PERSON');
  const members = useGraphQL<{ members: { nodes: Array<{ user: Member }> } }>(
    needsMembers ? MEMBERS : 'query DocumentNoMembers { __typename }',
  );
  const [values, setValues] = useState<Map<string, FieldValue>>(new Map());
  useEffect(() => setValues(new Map((q.data?.fieldValues ?? []).map((v) => [v.field.id, v]))), [q.data]);

  if (q.loading && !q.data) return <Loader size="sm" aria-label="Loading fields" />;
  if (q.error) {
    return (
      <Alert color="red" variant="light" role="alert">
        {errorMessage(q.error)}
      </Alert>
    );
  }
  const fields = [...(q.data?.own ?? []), ...(q.data?.workspace ?? [])];
  if (!fields.length) {
    return (
      <EmptyState title="No fields yet">Project managers can add {kind} fields in the project’s settings.</EmptyState>
    );
  }
  const memberList = members.data && 'members' in members.data ? members.data.members.nodes.map((n) => n.user) : [];
  return (
    <Stack gap="sm">
      {fields.map((f) => {
        const v = values.get(f.id);
        return (
          <FieldInput
            key={f.id}
            field={f}
            value={v?.value ?? null}
            options={v?.options.map((o) => o.id) ?? []}
            disabled={!canEdit}
            members={memberList}
            onSave={async (value, optionIds) => {
              try {
                const r = await host.graphql<{ setFieldValue: FieldValue | null }>(SET_FIELD_VALUE, {
                  objectType: type,
                  objectId,
                  fieldId: f.id,
                  value: optionIds ? null : value,
                  ...(optionIds ? { optionIds } : {}),
                });
                setValues((m) => {
                  const next = new Map(m);
                  if (r.setFieldValue) next.set(f.id, r.setFieldValue);
                  else next.delete(f.id);
                  return next;
                });
                return null;
              } catch (err) {
                return errorMessage(err);
              }
            }}
          />
        );
      })}
      {!canEdit && (
        <Text size="xs" c="dimmed">
          You can read these fields; people who can edit the {kind} can change them.
        </Text>
      )}
    </Stack>
  );
}
