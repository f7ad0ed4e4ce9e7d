import { Button, Checkbox, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useState } from 'react';
import { REFRESH_CHOICES, SQ, type PluginSource, type SourceSetting, type SyncRun } from './api.ts';

export type Value = string | number | boolean | string[] | null;

export function initial(setting: SourceSetting): Value {
  if (setting.type === 'boolean') return false;
  if (setting.type === 'string[]') return [];
  return null;
}

/**
 * A list typed with commas. The text is kept as typed: rebuilt from the list, a comma just typed
 * (before the next item) would vanish and no second item could be entered.
 */
function ListInput({
  value,
  onChange,
  ...common
}: {
  label: string;
  description?: string;
  required?: boolean;
  value: string[];
  onChange: (v: string[]) => void;
}) {
  const [text, setText] = useState(() => value.join(', '));
  return (
    <TextInput
      {...common}
      placeholder="Separate them with commas"
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        onChange(
          e.currentTarget.value
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        );
      }}
    />
  );
}

export function SettingInput({
  setting,
  value,
  onChange,
}: {
  setting: SourceSetting;
  value: Value;
  onChange: (v: Value) => void;
}) {
  const common = { label: setting.label, description: setting.description ?? undefined, required: setting.required };
  switch (setting.type) {
    case 'boolean':
      return (
        <Checkbox
          label={setting.label}
          description={setting.description ?? undefined}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      );
    case 'integer':
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' ? value : ''}
          onChange={(v) => onChange(typeof v === 'number' ? v : null)}
          allowDecimal={false}
        />
      );
    case 'date':
      return (
        <TextInput
          {...common}
          type="date"
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.currentTarget.value || null)}
        />
      );
    case 'string[]':
      return <ListInput {...common} value={Array.isArray(value) ? value : []} onChange={onChange} />;
    default:
      return (
        <TextInput
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.currentTarget.value || null)}
        />
      );
  }
}

/** The settings people filled in: what is left empty is not sent, so the source's default applies. */
export const filledIn = (values: Record<string, Value>): Record<string, Value> =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && !(Array.isArray(v) && !v.length)));

/**
 * The settings of a plugin's source (its payload fields), how often it refreshes and how far back
 * the first import reaches; connecting starts the first import, whose run is handed back.
 */
export function ConnectSourceForm({
  channelId,
  source,
  onStarted,
  onError,
}: {
  channelId: string;
  source: PluginSource;
  onStarted: (run: SyncRun) => void;
  onError: (message: string | null) => void;
}) {
  const host = useFieldbook();
  const [values, setValues] = useState<Record<string, Value>>(() =>
    Object.fromEntries(source.settings.map((s) => [s.key, initial(s)])),
  );
  const [name, setName] = useState(source.label);
  const [refresh, setRefresh] = useState<string>('1440');
  const [days, setDays] = useState<number>(30);
  const [busy, setBusy] = useState(false);

  async function connect() {
    setBusy(true);
    onError(null);
    try {
      const settings = filledIn(values);
      const { connectChannelSource } = await host.graphql<{ connectChannelSource: SyncRun }>(SQ.connect, {
        input: {
          channelId,
          pluginId: source.pluginId,
          kind: source.kind,
          name,
          settings,
          refreshMinutes: refresh ? Number(refresh) : null,
          firstImportPeriodDays: days,
        },
      });
      onStarted(connectChannelSource);
    } catch (e) {
      onError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="sm">
      {source.description && (
        <Text size="sm" c="dimmed">
          {source.description}
        </Text>
      )}
      <TextInput label="Dataset name" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={300} />
      {source.settings.map((s) => (
        <SettingInput
          key={s.key}
          setting={s}
          value={values[s.key] ?? null}
          onChange={(v) => setValues((prev) => ({ ...prev, [s.key]: v }))}
        />
      ))}
      <Group grow>
        <NumberInput
          label="First import: days back"
          min={1}
          max={3650}
          allowDecimal={false}
          value={days}
          onChange={(v) => setDays(typeof v === 'number' ? v : 30)}
        />
        <Select
          label="Refresh"
          data={REFRESH_CHOICES}
          value={refresh}
          onChange={(v) => setRefresh(v ?? '')}
          allowDeselect={false}
        />
      </Group>
      <Group justify="flex-end">
        <Button loading={busy} onClick={() => void connect()}>
          Connect and import
        </Button>
      </Group>
    </Stack>
  );
}
