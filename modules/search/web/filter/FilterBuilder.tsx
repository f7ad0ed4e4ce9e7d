import { ActionIcon, Box, Button, Group, Paper, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconFilterOff, IconPlus, IconX } from '@tabler/icons-react';
import {
  changeField,
  fieldKey,
  isCustomField,
  isSystemField,
  operandFor,
  operatorLabel,
  operatorsFor,
  type Combinator,
  type FieldForm,
  type FilterField,
  type FilterForm,
  type OperandValue,
  type Operator,
} from '../../src/filters/index.ts';
import { fieldLabel, offeredFields } from './fields.ts';
import { ValueInput } from './ValueInput.tsx';

let counter = 0;
const newFormId = (): string => `form-${Date.now().toString(36)}-${(++counter).toString(36)}`;

const labelOf = (field: FilterField): string =>
  isCustomField(field) ? `Custom field (${field.fieldType.toLowerCase()})` : fieldLabel(field);

/** The form's value for its operator, written back under the field and operand type (000 §3). */
function withValue(form: FieldForm, value: OperandValue | undefined): FieldForm {
  if (form.operator === null) return form;
  const operand = operandFor(form.field, form.operator);
  if (operand === null) return form;
  const key = fieldKey(form.field);
  const byOperand = { ...(form.values[key] ?? {}) } as Record<string, unknown>;
  if (value === undefined) delete byOperand[operand];
  else byOperand[operand] = value;
  return { ...form, values: { ...form.values, [key]: byOperand } };
}

function currentValue(form: FieldForm): OperandValue | undefined {
  if (form.operator === null) return undefined;
  const operand = operandFor(form.field, form.operator);
  return operand === null ? undefined : (form.values[fieldKey(form.field)]?.[operand] as OperandValue | undefined);
}

export interface FilterBuilderProps {
  filter: FilterForm;
  onChange(filter: FilterForm): void;
  can(permission: string): boolean;
}

/**
 * The filter form (000 §3-§5): conditions joined by and or or, each a field, one of the operators
 * that field allows, and a value of the field's operand type. Hidden forms keep filtering but are
 * not shown.
 */
export function FilterBuilder({ filter, onChange, can }: FilterBuilderProps) {
  const offered = offeredFields(can);
  const visible = filter.forms.filter((f) => !f.hidden);
  const replace = (id: string, next: FieldForm) =>
    onChange({ ...filter, forms: filter.forms.map((f) => (f.id === id ? next : f)) });
  const remove = (id: string) => onChange({ ...filter, forms: filter.forms.filter((f) => f.id !== id) });
  const add = () => {
    const field = offered[0]?.field ?? 'Title';
    onChange({
      ...filter,
      forms: [...filter.forms, { id: newFormId(), field, operator: operatorsFor(field)[0]!, values: {} }],
    });
  };
  const clear = () => onChange({ ...filter, forms: filter.forms.filter((f) => f.hidden) });

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="filter-heading">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="sm">
        <Group gap="sm">
          <Text id="filter-heading" fw={600} component="h2" fz="md" m={0}>
            Filter
          </Text>
          {visible.length > 1 && (
            <Group gap={6}>
              <Text size="sm" c="dimmed" id="combinator-label">
                Match
              </Text>
              <SegmentedControl
                size="xs"
                aria-labelledby="combinator-label"
                value={filter.combinator}
                onChange={(v) => onChange({ ...filter, combinator: v as Combinator })}
                data={[
                  { value: 'and', label: 'All conditions (and)' },
                  { value: 'or', label: 'Any condition (or)' },
                ]}
              />
            </Group>
          )}
        </Group>
        {visible.length > 0 && (
          <Button
            variant="subtle"
            size="compact-sm"
            color="gray"
            leftSection={<IconFilterOff size={14} aria-hidden />}
            onClick={clear}
          >
            Clear filter
          </Button>
        )}
      </Group>
      <Stack gap="xs" component="ol" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Conditions">
        {visible.length === 0 && (
          <Text size="sm" c="dimmed" component="li">
            No conditions: every result the search text finds is shown.
          </Text>
        )}
        {visible.map((form, i) => (
          <ConditionRow
            key={form.id}
            index={i}
            form={form}
            combinator={filter.combinator}
            offered={offered.map((o) => ({ value: o.field, label: o.label, group: o.group }))}
            onChange={(next) => replace(form.id, next)}
            onRemove={() => remove(form.id)}
          />
        ))}
      </Stack>
      <Button
        mt="sm"
        variant="light"
        size="compact-sm"
        leftSection={<IconPlus size={14} aria-hidden />}
        onClick={add}
        disabled={offered.length === 0}
      >
        Add condition
      </Button>
    </Paper>
  );
}

interface Option {
  value: string;
  label: string;
  group: string;
}

function ConditionRow({
  index,
  form,
  combinator,
  offered,
  onChange,
  onRemove,
}: {
  index: number;
  form: FieldForm;
  combinator: Combinator;
  offered: Option[];
  onChange(form: FieldForm): void;
  onRemove(): void;
}) {
  const key = fieldKey(form.field);
  const name = labelOf(form.field);
  // A field a link brought that this screen does not offer still shows, so it can be read or changed.
  const options = offered.some((o) => o.value === key)
    ? offered
    : [...offered, { value: key, label: name, group: 'From the link' }];
  const groups = [...new Set(options.map((o) => o.group))].map((group) => ({
    group,
    items: options.filter((o) => o.group === group).map(({ value, label }) => ({ value, label })),
  }));
  const operand = form.operator === null ? null : operandFor(form.field, form.operator);
  const position = `condition ${index + 1}`;

  return (
    <Group
      component="li"
      gap="xs"
      align="flex-start"
      wrap="wrap"
      aria-label={`${name} ${form.operator ? operatorLabel(form.field, form.operator) : ''}`.trim()}
    >
      <Text size="sm" c="dimmed" w={36} ta="right" mt={7} aria-hidden>
        {index === 0 ? 'Where' : combinator}
      </Text>
      <Select
        aria-label={`Field of ${position}`}
        data={groups}
        value={key}
        onChange={(v) => {
          if (!v || v === key || !isSystemField(v)) return;
          onChange(changeField(form, v));
        }}
        allowDeselect={false}
        searchable
        w={170}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        aria-label={`Operator of ${position}`}
        data={operatorsFor(form.field).map((op) => ({ value: op, label: operatorLabel(form.field, op) }))}
        value={form.operator}
        placeholder="Choose an operator"
        onChange={(v) => v && onChange({ ...form, operator: v as Operator })}
        allowDeselect={false}
        w={150}
        comboboxProps={{ withinPortal: true }}
      />
      <Box style={{ flex: '1 1 200px', minWidth: 180 }}>
        {operand !== null && (
          <ValueInput
            key={`${key}:${operand}`}
            operand={operand}
            value={currentValue(form)}
            onChange={(v) => onChange(withValue(form, v))}
            label={`${name} value`}
          />
        )}
      </Box>
      <ActionIcon
        variant="subtle"
        color="gray"
        size={36}
        aria-label={`Remove ${position} (${name})`}
        onClick={onRemove}
      >
        <IconX size={16} aria-hidden />
      </ActionIcon>
    </Group>
  );
}
