import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Badge, Button, CloseButton, Group, MultiSelect, Select, TextInput } from '@mantine/core';
import { IconFilterPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import {
  FILTER_LABELS,
  FILTER_TYPES,
  loadChoices,
  type Choice,
  type ConversationQuery,
  type FilterType,
} from './conversationFilters.ts';

interface Props {
  value: ConversationQuery;
  onChange: (next: ConversationQuery) => void;
}

/**
 * Builds the conversation search's object filters (001 §3.3): pick a type, then readable objects of
 * it; each filter shows as a chip that removes it. The date range bounds when conversations were active.
 */
export function FilterBuilder({ value, onChange }: Props) {
  const host = useFieldbook();
  const [type, setType] = useState<FilterType>('Project');
  const [picked, setPicked] = useState<string[]>([]);
  const [choices, setChoices] = useState<Partial<Record<FilterType, Choice[]>>>({});

  // Loads the objects of the type being picked and of every type in the address, for the chips' names.
  const wanted = [...new Set<FilterType>([type, ...value.filters.map((f) => f.type)])]
    .filter((t) => !choices[t])
    .join(',');
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    for (const t of wanted.split(',') as FilterType[]) {
      loadChoices(host, t)
        .then((list) => live && setChoices((c) => ({ ...c, [t]: list })))
        .catch(() => live && setChoices((c) => ({ ...c, [t]: [] })));
    }
    return () => {
      live = false;
    };
  }, [wanted, host]);

  const nameOf = (t: FilterType, id: string) => choices[t]?.find((c) => c.value === id)?.label ?? 'Loading…';
  const add = () => {
    if (picked.length === 0) return;
    onChange({ ...value, filters: [...value.filters, { type, objectIds: picked }] });
    setPicked([]);
  };
  const remove = (i: number) => onChange({ ...value, filters: value.filters.filter((_, j) => j !== i) });

  return (
    <div role="group" aria-label="Conversation filters">
      <Group align="flex-end" mb="xs" wrap="wrap">
        <Select
          label="Filter by"
          data={FILTER_TYPES.map((t) => ({ value: t, label: FILTER_LABELS[t] }))}
          value={type}
          onChange={(t) => {
            if (t) setType(t as FilterType);
            setPicked([]);
          }}
          allowDeselect={false}
          w={160}
        />
        <MultiSelect
          label={`Naming ${FILTER_LABELS[type].toLowerCase()}s`}
          placeholder={choices[type] ? (choices[type].length ? 'Pick one or more' : 'Nothing to pick') : 'Loading…'}
          data={choices[type] ?? []}
          value={picked}
          onChange={setPicked}
          searchable
          clearable
          w={300}
        />
        <Button
          variant="default"
          leftSection={<IconFilterPlus size={16} aria-hidden />}
          onClick={add}
          disabled={picked.length === 0}
        >
          Add filter
        </Button>
        <TextInput
          type="date"
          label="Active from"
          value={value.from}
          onChange={(e) => onChange({ ...value, from: e.currentTarget.value })}
          w={160}
        />
        <TextInput
          type="date"
          label="Active until"
          value={value.to}
          onChange={(e) => onChange({ ...value, to: e.currentTarget.value })}
          w={160}
        />
      </Group>
      {value.filters.length > 0 && (
        <Group gap="xs" mb="sm" aria-label="Filters applied" role="list">
          {value.filters.map((f, i) => {
            const text = `${FILTER_LABELS[f.type]}: ${f.objectIds.map((id) => nameOf(f.type, id)).join(', ')}`;
            return (
              <Badge
                key={`${f.type}-${f.objectIds.join(',')}-${i}`}
                role="listitem"
                variant="light"
                size="lg"
                tt="none"
                rightSection={<CloseButton size="xs" aria-label={`Remove filter ${text}`} onClick={() => remove(i)} />}
              >
                {text}
              </Badge>
            );
          })}
        </Group>
      )}
    </div>
  );
}
