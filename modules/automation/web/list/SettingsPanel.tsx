import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Button, Group, NumberInput, Paper, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorText } from '../api.ts';

interface Settings {
  timeZone: string;
  runsPerMinute: number;
}

/** Workspace admins: the time zone schedules are read in, and the runs allowed per minute. */
export function SettingsPanel() {
  const host = useFieldbook();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    void host.graphql<{ automationSettings: Settings }>('{ automationSettings { timeZone runsPerMinute } }').then(
      (r) => setSettings(r.automationSettings),
      () => undefined,
    );
  }, [host]);
  if (!settings) return null;
  const save = async () => {
    try {
      const r = await host.graphql<{ updateAutomationSettings: Settings }>(
        'mutation($tz: String, $n: Int) { updateAutomationSettings(timeZone: $tz, runsPerMinute: $n) { timeZone runsPerMinute } }',
        { tz: settings.timeZone, n: settings.runsPerMinute },
      );
      setSettings(r.updateAutomationSettings);
      setMessage({ ok: true, text: 'Saved.' });
    } catch (err) {
      setMessage({ ok: false, text: errorText(err) });
    }
  };
  return (
    <Paper withBorder p="md" radius="md" mt="xl">
      <Text fw={600} mb="xs">
        Workspace settings
      </Text>
      <Group align="flex-end" gap="sm">
        <TextInput
          label="Time zone for schedules"
          value={settings.timeZone}
          onChange={(e) => setSettings({ ...settings, timeZone: e.currentTarget.value })}
        />
        <NumberInput
          label="Runs per minute"
          min={1}
          max={100000}
          value={settings.runsPerMinute}
          onChange={(v) => setSettings({ ...settings, runsPerMinute: Number(v) })}
        />
        <Button variant="light" onClick={() => void save()}>
          Save settings
        </Button>
      </Group>
      {message && (
        <Text size="sm" mt="xs" c={message.ok ? 'teal.8' : 'red.8'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </Text>
      )}
    </Paper>
  );
}
