import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Button, Group, NumberInput, Paper, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorText } from '../api.ts';

interface Settings {
  timeZone: string;
  runsPerMinute: number;
  emailDomains: string[];
}

const EMAIL_DOMAINS_MAX = 50;
const FIELDS = 'timeZone runsPerMinute emailDomains';

/**
 * Workspace admins: the time zone schedules are read in, the runs allowed per minute, and the
 * domains outside the workspace that "Send an email" actions may write to.
 */
export function SettingsPanel() {
  const host = useFieldbook();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    void host.graphql<{ automationSettings: Settings }>(`{ automationSettings { ${FIELDS} } }`).then(
      (r) => setSettings(r.automationSettings),
      () => undefined,
    );
  }, [host]);
  if (!settings) return null;
  const save = async () => {
    try {
      const r = await host.graphql<{ updateAutomationSettings: Settings }>(
        `mutation($tz: String, $n: Int, $d: [String!]) { updateAutomationSettings(timeZone: $tz, runsPerMinute: $n, emailDomains: $d) { ${FIELDS} } }`,
        { tz: settings.timeZone, n: settings.runsPerMinute, d: settings.emailDomains },
      );
      setSettings(r.updateAutomationSettings);
      setMessage({ ok: true, text: 'Saved.' });
    } catch (err) {
      setMessage({ ok: false, text: errorText(err) });
    }
  };
  return (
    <Paper withBorder p="md" radius="md" mt="xl" component="section" aria-label="Workspace settings">
      <Text fw={600} mb="xs">
        Workspace settings
      </Text>
      <Stack gap="sm">
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
        </Group>
        <TagsInput
          label="Email domains outside the workspace"
          description={`“Send an email” actions can always write to members. Anyone else only at these domains (press Enter after each, e.g. partner.com; up to ${EMAIL_DOMAINS_MAX}).`}
          value={settings.emailDomains}
          onChange={(emailDomains) => setSettings({ ...settings, emailDomains })}
          maxTags={EMAIL_DOMAINS_MAX}
          splitChars={[',', ' ']}
          clearable
          maw={640}
        />
        <Group>
          <Button variant="light" onClick={() => void save()}>
            Save settings
          </Button>
        </Group>
      </Stack>
      {message && (
        <Text size="sm" mt="xs" c={message.ok ? 'teal.8' : 'red.8'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </Text>
      )}
    </Paper>
  );
}
