import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useState } from 'react';
import { filledIn, initial, SettingInput, type Value } from './ConnectSourceForm.tsx';
import { SQ, type DatasetView, type SourceSetting } from './api.ts';

/** A setting's saved value as the form holds it (a list stays a list, anything else is dropped). */
function asValue(setting: SourceSetting, saved: unknown): Value {
  if (saved === undefined || saved === null) return initial(setting);
  if (setting.type === 'string[]') return Array.isArray(saved) ? saved.map(String) : initial(setting);
  if (typeof saved === 'string' || typeof saved === 'number' || typeof saved === 'boolean') return saved;
  return initial(setting);
}

function shown(setting: SourceSetting, value: unknown): string {
  if (Array.isArray(value)) return value.length ? value.join(', ') : 'all';
  if (value === undefined || value === null || value === '') return setting.type === 'string[]' ? 'all' : '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** What a connection was set up with, in a line: "Groups: all · Tags: feedback". */
export function SettingsSummary({ dataset, fields }: { dataset: DatasetView; fields: readonly SourceSetting[] }) {
  if (!fields.length) return null;
  return (
    <Text size="sm" c="dimmed">
      {fields.map((f) => `${f.label}: ${shown(f, dataset.settings[f.key])}`).join(' · ')}
    </Text>
  );
}

/**
 * Changing a connection's settings. The next sync reads the source again from the start of its
 * first import period with them; what is already in is updated, not doubled.
 */
export function EditSourceSettings({
  dataset,
  fields,
  onClose,
  onSaved,
}: {
  dataset: DatasetView;
  fields: readonly SourceSetting[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const host = useFieldbook();
  const [values, setValues] = useState<Record<string, Value>>(() =>
    Object.fromEntries(fields.map((f) => [f.key, asValue(f, dataset.settings[f.key])])),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    setBusy(true);
    setError(null);
    try {
      await host.graphql(SQ.settings, { id: dataset.id, settings: filledIn(values) });
      onSaved();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={`Settings of ${dataset.name}`} size="lg">
      <Stack gap="sm">
        {fields.map((f) => (
          <SettingInput
            key={f.key}
            setting={f}
            value={values[f.key] ?? null}
            onChange={(v) => setValues((all) => ({ ...all, [f.key]: v }))}
          />
        ))}
        <Text size="sm" c="dimmed">
          The next sync reads this source again from the start of its first import period with these settings; data
          points already in the channel are updated, not added twice.
        </Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={busy} onClick={() => void save()}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
