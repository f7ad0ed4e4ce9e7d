import { Group, NumberInput, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import type { AutomationEvent, Choices } from '../api.ts';
import type { Draft } from './draft.ts';
import { RuleBuilder } from './RuleBuilder.tsx';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The trigger: an event (or a composite) with its configure fields and rules, or a schedule. */
export function TriggerPicker({
  draft,
  events,
  choices,
  onChange,
}: {
  draft: Draft;
  events: AutomationEvent[];
  choices: Partial<Choices>;
  onChange(d: Partial<Draft>): void;
}) {
  const pickable = events.filter((e) => e.key !== 'userSchedule');
  const event = events.find((e) => e.key === draft.eventKey);
  const r = draft.recurrence;
  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="Trigger type"
        value={draft.type}
        onChange={(v) => onChange({ type: v as Draft['type'] })}
        data={[
          { value: 'Event', label: 'When something happens' },
          { value: 'Schedule', label: 'On a schedule' },
        ]}
        w="fit-content"
      />
      {draft.type === 'Event' ? (
        <>
          <Select
            label="Event"
            data={[
              {
                group: 'Events',
                items: pickable
                  .filter((e) => !e.composite)
                  .map((e) => ({ value: e.key, label: `${e.title} (${e.key})` })),
              },
              {
                group: 'Any of several events',
                items: pickable
                  .filter((e) => e.composite)
                  .map((e) => ({ value: e.key, label: `${e.key}: ${e.events.join(', ')}` })),
              },
            ]}
            value={draft.eventKey}
            allowDeselect={false}
            onChange={(v) => onChange({ eventKey: v!, configure: {}, rules: null })}
          />
          {event?.configure.map((path) =>
            path === 'project.id' ? (
              <Select
                key={path}
                label="In project"
                description="Leave empty for every project (workspace admins only)."
                data={(choices.projects ?? []).map((p) => ({ value: p.id, label: p.title }))}
                value={draft.configure[path] ?? null}
                clearable
                searchable
                onChange={(v) =>
                  onChange({
                    configure: v
                      ? { ...draft.configure, [path]: v }
                      : Object.fromEntries(Object.entries(draft.configure).filter(([k]) => k !== path)),
                  })
                }
              />
            ) : path === 'channel.id' && choices.channels ? (
              <Select
                key={path}
                label="In channel"
                description="Leave empty for every channel (workspace admins only)."
                data={choices.channels.map((c) => ({ value: c.id, label: c.name }))}
                value={draft.configure[path] ?? null}
                clearable
                searchable
                onChange={(v) =>
                  onChange({
                    configure: v
                      ? { ...draft.configure, [path]: v }
                      : Object.fromEntries(Object.entries(draft.configure).filter(([k]) => k !== path)),
                  })
                }
              />
            ) : (
              <TextInput
                key={path}
                label={path}
                value={draft.configure[path] ?? ''}
                onChange={(e) => onChange({ configure: { ...draft.configure, [path]: e.currentTarget.value } })}
              />
            ),
          )}
          <Text fw={600} size="sm" mt="xs">
            Only when
          </Text>
          <RuleBuilder fields={event?.fields ?? []} rules={draft.rules} onChange={(rules) => onChange({ rules })} />
        </>
      ) : (
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label="Repeats"
            data={['Daily', 'Weekly', 'Monthly', 'Yearly']}
            value={r.frequency}
            allowDeselect={false}
            onChange={(v) => onChange({ recurrence: { ...r, frequency: v as typeof r.frequency } })}
          />
          {r.frequency === 'Weekly' && (
            <Select
              label="On"
              data={WEEKDAYS.map((d, i) => ({ value: String(i), label: d }))}
              value={String(r.weekday ?? 1)}
              allowDeselect={false}
              onChange={(v) => onChange({ recurrence: { ...r, weekday: Number(v) } })}
            />
          )}
          {r.frequency === 'Yearly' && (
            <Select
              label="Month"
              data={MONTHS.map((m, i) => ({ value: String(i + 1), label: m }))}
              value={String(r.month ?? 1)}
              allowDeselect={false}
              onChange={(v) => onChange({ recurrence: { ...r, month: Number(v) } })}
            />
          )}
          {(r.frequency === 'Monthly' || r.frequency === 'Yearly') && (
            <NumberInput
              label="Day of the month"
              min={1}
              max={31}
              value={r.dayOfMonth ?? 1}
              onChange={(v) => onChange({ recurrence: { ...r, dayOfMonth: Number(v) } })}
            />
          )}
          <TextInput
            label="At (workspace time)"
            type="time"
            value={r.time}
            onChange={(e) => onChange({ recurrence: { ...r, time: e.currentTarget.value } })}
          />
        </Group>
      )}
    </Stack>
  );
}
