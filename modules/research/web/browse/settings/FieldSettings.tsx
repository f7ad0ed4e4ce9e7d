import {
  ActionIcon,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconForms, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { q, type Project } from '../api.ts';
import { errorLine } from '../ui/errors.ts';
import { useAction, useCan, useLoad } from '../ui/hooks.ts';
import { FieldLabel, OptionBadge } from './FieldEditing.tsx';
import { EmptyState, ErrorNote, SectionLoader, notifyDone, notifyError } from '../ui/layout.tsx';

/** The custom field types (000 §3) with how they are described to people. */
export const FIELD_TYPES = [
  { value: 'TEXT', label: 'Text' },
  { value: 'NUMBER', label: 'Number' },
  { value: 'SELECT', label: 'Select' },
  { value: 'BOOLEAN', label: 'Yes / no' },
  { value: 'DATETIME', label: 'Date and time' },
  { value: 'EMAIL', label: 'Email' },
  { value: 'PHONE', label: 'Phone' },
  { value: 'URL', label: 'URL' },
  { value: 'PERSON', label: 'Person' },
  { value: 'RATING', label: 'Rating' },
  { value: 'NPS', label: 'NPS' },
  { value: 'CSAT', label: 'CSAT' },
  { value: 'ARR', label: 'ARR' },
] as const;
const typeLabel = (t: string) => FIELD_TYPES.find((f) => f.value === t)?.label ?? t;

const NUMBER_FORMATS = [
  { value: 'number', label: 'Number' },
  { value: 'number_with_commas', label: 'Number with commas' },
  { value: 'percent', label: 'Percent' },
  { value: 'currency', label: 'Currency' },
];

export const LABEL_MAX = 250;
export const OPTION_MAX = 50;
export const OPTIONS_MAX = 750;

interface Field {
  id: string;
  type: string;
  label: string;
  maxSelectable: number | null;
  numberConfig: { format: string; currencySymbol: string | null } | null;
  options: Array<{ id: string; label: string; color: string }>;
}

/** Options typed one per line: trimmed, blank lines dropped, duplicates (whatever their case) kept once. */
export function parseOptions(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const label = raw.trim();
    if (!label || seen.has(label.toLowerCase())) continue;
    seen.add(label.toLowerCase());
    out.push(label);
  }
  return out;
}

/** /projects/{projectId}/settings/fields (and /insight-fields): the project's custom fields and their select options. */
export function FieldSettings({ project, objectType }: { project: Project; objectType: 'NOTE' | 'INSIGHT' }) {
  const { graphql } = useFieldbook();
  const can = useCan();
  const fields = useLoad<{ fieldSet: Field[] }>(q.fieldSet, { objectType, projectId: project.id });
  const editable = project.myAccess.canEdit && can('fields:create');
  const canDelete = project.myAccess.canEdit && can('fields:manage');
  const what = objectType === 'NOTE' ? 'note' : 'insight';

  async function remove(field: Field) {
    try {
      await graphql(q.deleteField, { id: field.id });
      notifyDone(`The field ${field.label} was deleted.`);
      void fields.reload();
    } catch (err) {
      notifyError(err, 'The field was not deleted');
    }
  }

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg">
        <Title order={2} fz="lg" mb={4}>
          {objectType === 'NOTE' ? 'Note fields' : 'Insight fields'}
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          Custom fields every {what} of this project can fill in, e.g. the customer’s plan or the interview date.
        </Text>
        {fields.error && !fields.data ? (
          <ErrorNote error={fields.error} title="The fields could not be loaded" onRetry={() => void fields.reload()} />
        ) : !fields.data ? (
          <SectionLoader label="Loading fields…" />
        ) : fields.data.fieldSet.length === 0 ? (
          <EmptyState icon={<IconForms size={24} />} title={`No ${what} fields yet`}>
            {editable ? 'Add the first one below.' : 'People with edit access to this project can add fields.'}
          </EmptyState>
        ) : (
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Options</Table.Th>
                {canDelete && (
                  <Table.Th w={48}>
                    <span
                      style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
                    >
                      Actions
                    </span>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {fields.data.fieldSet.map((f) => (
                <Table.Tr key={f.id}>
                  <Table.Td>
                    <FieldLabel field={f} editable={editable} onChanged={() => void fields.reload()} />
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color="gray" radius="sm">
                      {typeLabel(f.type)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {f.type === 'SELECT' ? (
                      <Stack gap={6}>
                        <Group gap={4}>
                          {f.options.map((o) => (
                            <OptionBadge
                              key={o.id}
                              option={o}
                              editable={editable}
                              canDelete={canDelete}
                              onChanged={() => void fields.reload()}
                            />
                          ))}
                          {!f.options.length && (
                            <Text size="xs" c="dimmed">
                              No options yet
                            </Text>
                          )}
                        </Group>
                        {editable && <AddOption field={f} onAdded={() => void fields.reload()} />}
                      </Stack>
                    ) : f.numberConfig ? (
                      <Text size="sm" c="dimmed">
                        {NUMBER_FORMATS.find((n) => n.value === f.numberConfig!.format)?.label}
                        {f.numberConfig.currencySymbol ? ` (${f.numberConfig.currencySymbol})` : ''}
                      </Text>
                    ) : (
                      <Text size="sm" c="dimmed">
                        —
                      </Text>
                    )}
                  </Table.Td>
                  {canDelete && (
                    <Table.Td>
                      <Tooltip label="Delete field">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Delete field ${f.label}`}
                          onClick={() => void remove(f)}
                        >
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      {editable && (
        <NewFieldForm projectId={project.id} objectType={objectType} onCreated={() => void fields.reload()} />
      )}
    </Stack>
  );
}

function AddOption({ field, onAdded }: { field: Field; onAdded(): void }) {
  const { graphql } = useFieldbook();
  const [label, setLabel] = useState('');
  const add = useAction((l: string) => graphql(q.addFieldOption, { fieldId: field.id, input: { label: l } }));
  const trimmed = label.trim();
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        if (await add.run(trimmed)) {
          setLabel('');
          onAdded();
        }
      }}
    >
      <Group gap={6} align="flex-start">
        <TextInput
          size="xs"
          aria-label={`New option for ${field.label}`}
          placeholder="Add an option"
          value={label}
          onChange={(e) => setLabel(e.currentTarget.value)}
          error={
            trimmed.length > OPTION_MAX ? `At most ${OPTION_MAX} characters.` : add.error ? errorLine(add.error) : null
          }
        />
        <Button
          size="xs"
          variant="light"
          type="submit"
          loading={add.busy}
          disabled={!trimmed || trimmed.length > OPTION_MAX}
        >
          Add
        </Button>
      </Group>
    </form>
  );
}

function NewFieldForm({
  projectId,
  objectType,
  onCreated,
}: {
  projectId: string;
  objectType: 'NOTE' | 'INSIGHT';
  onCreated(): void;
}) {
  const { graphql } = useFieldbook();
  const [label, setLabel] = useState('');
  const [type, setType] = useState<string>('TEXT');
  const [options, setOptions] = useState('');
  const [max, setMax] = useState<number | string>('');
  const [format, setFormat] = useState('number');
  const [currency, setCurrency] = useState('$');
  const create = useAction((input: Record<string, unknown>) => graphql(q.createField, { input }));
  const trimmed = label.trim();
  const optionList = parseOptions(options);
  const longOption = optionList.find((o) => o.length > OPTION_MAX);
  const labelProblem = trimmed.length > LABEL_MAX ? `A field label can have at most ${LABEL_MAX} characters.` : null;
  const optionsProblem = longOption
    ? `“${longOption.slice(0, 20)}…” is longer than ${OPTION_MAX} characters.`
    : optionList.length > OPTIONS_MAX
      ? `A field can have at most ${OPTIONS_MAX} options.`
      : null;
  const numeric = type === 'NUMBER' || type === 'ARR';

  return (
    <Paper withBorder p="lg">
      <Title order={2} fz="lg" mb="md">
        New field
      </Title>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (!trimmed || labelProblem || optionsProblem) return;
          const input: Record<string, unknown> = { objectType, projectId, type, label: trimmed };
          if (type === 'SELECT') {
            input.options = optionList.map((o) => ({ label: o }));
            if (max !== '') input.maxSelectable = Number(max);
          }
          if (numeric) input.numberConfig = { format, currencySymbol: format === 'currency' ? currency : null };
          if (await create.run(input)) {
            notifyDone(`The field ${trimmed} was created.`);
            setLabel('');
            setOptions('');
            setMax('');
            onCreated();
          }
        }}
      >
        <Stack gap="md">
          <Group grow align="flex-start">
            <TextInput
              label="Label"
              placeholder="e.g. Customer plan"
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
              error={labelProblem}
              required
            />
            <Select
              label="Type"
              data={FIELD_TYPES.map((f) => ({ value: f.value, label: f.label }))}
              value={type}
              onChange={(v) => v && setType(v)}
              allowDeselect={false}
            />
          </Group>
          {type === 'SELECT' && (
            <Group grow align="flex-start">
              <Textarea
                label="Options"
                description={`One per line, up to ${OPTION_MAX} characters each.`}
                autosize
                minRows={3}
                value={options}
                onChange={(e) => setOptions(e.currentTarget.value)}
                error={optionsProblem}
              />
              <NumberInput
                label="Most selectable"
                description="Leave empty for the default (100, or 1 with one option)."
                min={1}
                max={OPTIONS_MAX}
                value={max}
                onChange={setMax}
                allowDecimal={false}
              />
            </Group>
          )}
          {numeric && (
            <Group grow align="flex-start">
              <Select
                label="Format"
                data={NUMBER_FORMATS}
                value={format}
                onChange={(v) => v && setFormat(v)}
                allowDeselect={false}
              />
              {format === 'currency' && (
                <TextInput
                  label="Currency symbol"
                  value={currency}
                  onChange={(e) => setCurrency(e.currentTarget.value)}
                  maxLength={5}
                />
              )}
            </Group>
          )}
          <ErrorNote error={create.error} title="The field was not created" />
          <Group justify="flex-end">
            <Button
              type="submit"
              leftSection={<IconPlus size={16} aria-hidden />}
              loading={create.busy}
              disabled={!trimmed || Boolean(labelProblem || optionsProblem)}
            >
              Create field
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
