import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  MultiSelect,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { OPERATOR_LABELS, VALUELESS_OPERATORS, type Operator } from '../../src/rules/operators.ts';
import type { Condition, EventField, Rules } from '../api.ts';

/**
 * The rule builder: AND or OR over conditions; each condition's operator list is exactly its
 * field type's (001 §5), and its value input fits the type.
 */
export function RuleBuilder({
  fields,
  rules,
  onChange,
}: {
  fields: EventField[];
  rules: Rules | null;
  onChange(r: Rules | null): void;
}) {
  if (!fields.length)
    return (
      <Text size="sm" c="dimmed">
        This trigger has no fields to test: it always runs.
      </Text>
    );
  const conditions = rules?.conditions ?? [];
  const set = (i: number, c: Condition) =>
    onChange({ combinator: rules?.combinator ?? 'AND', conditions: conditions.map((x, j) => (j === i ? c : x)) });
  const add = () => {
    const f = fields[0]!;
    onChange({
      combinator: rules?.combinator ?? 'AND',
      conditions: [...conditions, { field: f.path, operator: f.operators[0]!, value: '' }],
    });
  };
  const remove = (i: number) => {
    const rest = conditions.filter((_, j) => j !== i);
    onChange(rest.length ? { combinator: rules?.combinator ?? 'AND', conditions: rest } : null);
  };
  return (
    <Stack gap="xs">
      {conditions.length > 1 && (
        <Group gap="xs">
          <Text size="sm">Run when</Text>
          <SegmentedControl
            size="xs"
            aria-label="How conditions combine"
            value={rules?.combinator ?? 'AND'}
            onChange={(v) => onChange({ combinator: v as 'AND' | 'OR', conditions })}
            data={[
              { value: 'AND', label: 'all conditions hold' },
              { value: 'OR', label: 'any condition holds' },
            ]}
          />
        </Group>
      )}
      {conditions.map((c, i) => {
        const field = fields.find((f) => f.path === c.field) ?? fields[0]!;
        return (
          <Paper key={i} withBorder p="xs" radius="sm" data-testid="rule-condition">
            <Group gap="xs" align="flex-end" wrap="wrap">
              <Select
                label="Field"
                size="xs"
                data={fields.map((f) => ({ value: f.path, label: f.label }))}
                value={field.path}
                allowDeselect={false}
                onChange={(v) => {
                  const f = fields.find((x) => x.path === v)!;
                  set(i, { field: f.path, operator: f.operators[0]!, value: f.type === 'boolean' ? true : '' });
                }}
              />
              <Select
                label="Operator"
                size="xs"
                data={field.operators.map((op) => ({ value: op, label: OPERATOR_LABELS[op as Operator] ?? op }))}
                value={c.operator}
                allowDeselect={false}
                onChange={(v) => set(i, { ...c, operator: v! })}
              />
              {!VALUELESS_OPERATORS.includes(c.operator) && (
                <ValueInput field={field} condition={c} onChange={(value) => set(i, { ...c, value })} />
              )}
              <ActionIcon variant="subtle" color="red" aria-label="Remove this condition" onClick={() => remove(i)}>
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          </Paper>
        );
      })}
      <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={add} w="fit-content">
        Add a condition
      </Button>
    </Stack>
  );
}

function ValueInput({
  field,
  condition,
  onChange,
}: {
  field: EventField;
  condition: Condition;
  onChange(v: unknown): void;
}) {
  const value = condition.value;
  if (field.type === 'number' || condition.operator.startsWith('length')) {
    return (
      <NumberInput
        label="Value"
        size="xs"
        value={typeof value === 'number' ? value : ''}
        onChange={(v) => onChange(typeof v === 'number' ? v : Number(v))}
      />
    );
  }
  if (field.type === 'boolean') {
    return (
      <Select
        label="Value"
        size="xs"
        data={['true', 'false']}
        value={String(value ?? true)}
        allowDeselect={false}
        onChange={(v) => onChange(v === 'true')}
      />
    );
  }
  if (field.type === 'enum' && (condition.operator === 'in' || condition.operator === 'notIn')) {
    return (
      <MultiSelect
        label="Values"
        size="xs"
        data={field.options ?? []}
        value={Array.isArray(value) ? (value as string[]) : []}
        onChange={onChange}
      />
    );
  }
  if (field.type === 'enum')
    return (
      <Select
        label="Value"
        size="xs"
        data={field.options ?? []}
        value={typeof value === 'string' ? value : null}
        onChange={onChange}
      />
    );
  if (field.type === 'date')
    return (
      <TextInput
        label="Value"
        size="xs"
        type="datetime-local"
        value={typeof value === 'string' ? value.slice(0, 16) : ''}
        onChange={(e) => onChange(e.currentTarget.value ? new Date(e.currentTarget.value).toISOString() : '')}
      />
    );
  return (
    <TextInput
      label="Value"
      size="xs"
      value={typeof value === 'string' ? value : String(value ?? '')}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
