import { Loader, MultiSelect, NumberInput, Select, TextInput, type ComboboxItem } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  ALL_TIME,
  isMultiselect,
  RELATIVE_DATE_SPANS,
  RELATIVE_DATES,
  type MultiselectOperandType,
  type OperandType,
  type OperandValue,
} from '../../src/filters/index.ts';
import { SEARCHED, useChoiceCache, useFixedChoices, type Choice } from './choices.ts';

export interface ValueInputProps {
  operand: OperandType;
  value: OperandValue | undefined;
  onChange(value: OperandValue | undefined): void;
  /** The accessible name, e.g. "Title value". */
  label: string;
  /** Shown while nothing is chosen (multiselects). */
  placeholder?: string;
}

const RELATIVE_DATE_OPTIONS = [
  ...RELATIVE_DATES.map((d) => ({ value: d, label: RELATIVE_DATE_SPANS[d].label })),
  { value: ALL_TIME, label: 'All time' },
];
const BOOLEAN_OPTIONS = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

/** The value of one filter form, in the input its operand type calls for (000 §3). */
export function ValueInput({ operand, value, onChange, label, placeholder }: ValueInputProps) {
  if (isMultiselect(operand)) {
    const ids = Array.isArray(value) ? value : [];
    return SEARCHED[operand] ? (
      <SearchedMultiselect type={operand} ids={ids} onChange={onChange} label={label} />
    ) : (
      <FixedMultiselect type={operand} ids={ids} onChange={onChange} label={label} placeholder={placeholder} />
    );
  }
  switch (operand) {
    case 'boolean':
      return (
        <Select
          aria-label={label}
          data={BOOLEAN_OPTIONS}
          value={typeof value === 'boolean' ? String(value) : null}
          onChange={(v) => onChange(v === null ? undefined : v === 'true')}
          placeholder="Choose"
          allowDeselect={false}
        />
      );
    case 'int':
    case 'double':
      return (
        <NumberInput
          aria-label={label}
          value={typeof value === 'number' ? value : ''}
          onChange={(v) => onChange(typeof v === 'number' && Number.isFinite(v) ? v : undefined)}
          allowDecimal={operand === 'double'}
          placeholder={operand === 'int' ? 'A whole number' : 'A number'}
        />
      );
    case 'text':
      return (
        <TextInput
          aria-label={label}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.currentTarget.value)}
          placeholder="Type some text"
          maxLength={2000}
        />
      );
    case 'relativeDate':
      return (
        <Select
          aria-label={label}
          data={RELATIVE_DATE_OPTIONS}
          value={typeof value === 'string' ? value : ALL_TIME}
          onChange={(v) => onChange(v ?? ALL_TIME)}
          allowDeselect={false}
        />
      );
    default:
      return null;
  }
}

/** A multiselect left empty does not filter; its placeholder says so. */
const ANY: Partial<Record<MultiselectOperandType, string>> = {
  projectMultiselect: 'Any project',
  folderMultiselect: 'Any folder',
  tagMultiselect: 'Any tag',
  tagGroupMultiselect: 'Any tag group',
  tagBoardMultiselect: 'Any tag board',
  personMultiselect: 'Anyone',
  userMultiselect: 'Anyone',
};

const toItem = (c: Choice): ComboboxItem => ({ value: c.value, label: c.hint ? `${c.label} · ${c.hint}` : c.label });

function FixedMultiselect({
  type,
  ids,
  onChange,
  label,
  placeholder,
}: {
  type: MultiselectOperandType;
  ids: string[];
  onChange(v: string[]): void;
  label: string;
  placeholder?: string;
}) {
  const { choices, loading, error } = useFixedChoices(type);
  const data = useMemo(() => {
    const known = new Set(choices.map((c) => c.value));
    // An id from a link that is gone (or out of reach) still shows, so it can be removed.
    return [
      ...choices.map(toItem),
      ...ids
        .filter((id) => !known.has(id))
        .map((id) => ({ value: id, label: loading ? 'Loading…' : 'Unavailable item' })),
    ];
  }, [choices, ids, loading]);
  return (
    <MultiSelect
      aria-label={label}
      data={data}
      value={ids}
      onChange={onChange}
      searchable
      clearable
      placeholder={ids.length ? undefined : loading ? 'Loading…' : (placeholder ?? ANY[type] ?? 'Choose…')}
      nothingFoundMessage={error ? 'The choices could not be loaded. Reload the page to try again.' : 'Nothing found'}
      rightSection={loading ? <Loader size={14} /> : undefined}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={260}
      w="100%"
    />
  );
}

/** The field that picks items of a type by their ids, for resolving the titles of chosen ones. */
const ID_FIELDS = {
  NOTE: ['Note', 'noteMultiselect'],
  INSIGHT: ['Insights', 'insightMultiselect'],
  HIGHLIGHT: ['Highlight', 'highlightMultiselect'],
} as const;

/** Notes, insights and highlights are found by typing: the search itself lists them. */
function SearchedMultiselect({
  type,
  ids,
  onChange,
  label,
}: {
  type: MultiselectOperandType;
  ids: string[];
  onChange(v: string[]): void;
  label: string;
}) {
  const cache = useChoiceCache();
  const resultType = SEARCHED[type]!;
  const [text, setText] = useState('');
  const [found, setFound] = useState<Choice[]>([]);
  const [loading, setLoading] = useState(false);
  const [resolved, setResolved] = useState(0);
  const latest = useRef(0);
  const tried = useRef(new Set<string>());

  useEffect(() => {
    const call = ++latest.current;
    setLoading(true);
    const timer = setTimeout(() => {
      cache.search(resultType, text).then(
        (choices) => call === latest.current && (setFound(choices), setLoading(false)),
        () => call === latest.current && (setFound([]), setLoading(false)),
      );
    }, 200);
    return () => clearTimeout(timer);
  }, [cache, resultType, text]);

  // Titles of chosen items that came with a link.
  const missing = ids.filter((id) => !cache.found.has(id) && !tried.current.has(id));
  const missingKey = missing.join(',');
  useEffect(() => {
    if (!missingKey) return;
    const [field, operand] = ID_FIELDS[resultType];
    for (const id of missingKey.split(',')) tried.current.add(id);
    const filter = {
      combinator: 'and',
      forms: [{ id: 'ids', field, operator: 'oneOf', values: { [field]: { [operand]: missingKey.split(',') } } }],
    };
    void cache
      .graphql<{ search: { hits: Array<{ id: string; title: string; projectTitle: string | null }> } }>(
        'query SearchPickTitles($input: SearchInput!) { search(input: $input) { hits { id title projectTitle } } }',
        { input: { resultTypes: [resultType], filter, limit: 1000 } },
      )
      .then(
        ({ search }) => {
          for (const h of search.hits)
            cache.found.set(h.id, { value: h.id, label: h.title || 'Untitled', hint: h.projectTitle ?? undefined });
          setResolved((n) => n + 1);
        },
        () => setResolved((n) => n + 1),
      );
  }, [cache, resultType, missingKey]);

  const data = useMemo(() => {
    const items = new Map<string, ComboboxItem>();
    for (const id of ids) {
      const c = cache.found.get(id);
      items.set(id, c ? toItem(c) : { value: id, label: tried.current.has(id) ? 'Unavailable item' : 'Loading…' });
    }
    for (const c of found) if (!items.has(c.value)) items.set(c.value, toItem(c));
    return [...items.values()];
  }, [found, ids, cache, missingKey, resolved]);

  return (
    <MultiSelect
      aria-label={label}
      data={data}
      value={ids}
      onChange={onChange}
      searchable
      searchValue={text}
      onSearchChange={setText}
      filter={({ options }) => options}
      clearable
      placeholder={
        ids.length
          ? undefined
          : `Type to find ${resultType === 'NOTE' ? 'notes' : resultType === 'INSIGHT' ? 'insights' : 'highlights'}…`
      }
      nothingFoundMessage={loading ? 'Searching…' : 'Nothing found'}
      rightSection={loading ? <Loader size={14} /> : undefined}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={260}
      w="100%"
    />
  );
}
