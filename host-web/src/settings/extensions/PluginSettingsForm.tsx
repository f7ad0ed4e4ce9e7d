import { Button, Group, Modal, PasswordInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useQuery } from '../../api/hooks.ts';
import { ops, type Plugin } from '../../api/operations.ts';
import { ErrorAlert } from '../../common/ErrorAlert.tsx';
import { ExtensionSlot, useSlotExtensions } from '../../extensions/ExtensionsProvider.tsx';
import { useServices } from '../../session/SessionProvider.tsx';
import { useWorkspace } from '../../session/WorkspaceProvider.tsx';
import { draftFrom, missingRequired, settingsInput, type SettingsDraft } from './settings-input.ts';

const PROJECTS = `query ExtensionSettingsProjects { projects { id title } }`;

function ProjectField({
  label,
  description,
  required,
  value,
  onChange,
}: {
  label: string;
  description?: string;
  required: boolean;
  value: string;
  onChange(v: string): void;
}) {
  const projects = useQuery<{ projects: Array<{ id: string; title: string }> }>(PROJECTS);
  const data = (projects.data?.projects ?? []).map((p) => ({ value: p.id, label: p.title }));
  return (
    <Select
      label={label}
      description={description}
      withAsterisk={required}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      clearable
      nothingFoundMessage="No projects"
    />
  );
}

/**
 * Installs a plugin with its settings, or changes an installed plugin's settings. Secrets are never
 * shown: an empty secret field keeps the stored one, "Clear" removes it.
 */
export function PluginSettingsForm({
  plugin,
  opened,
  onClose,
  onSaved,
}: {
  plugin: Plugin;
  opened: boolean;
  onClose(): void;
  onSaved(): void;
}) {
  const { client } = useServices();
  const { workspace } = useWorkspace();
  const installed = plugin.installation !== null;
  // Only this plugin's own part belongs on its settings view; remotes load once the view opens.
  const own = useSlotExtensions('integration.settings.page/v1', !opened || !installed).extensions.filter(
    (e) => e.id === plugin.id,
  );
  const stored = plugin.installation?.settings ?? [];
  const [draft, setDraft] = useState<SettingsDraft>(() => draftFrom(plugin.settingFields, stored));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [tried, setTried] = useState(false);
  const missing = missingRequired(plugin.settingFields, draft, stored);
  const setText = (key: string, text: string) =>
    setDraft((d) => ({ ...d, text: { ...d.text, [key]: text }, cleared: { ...d.cleared, [key]: false } }));

  async function save() {
    setTried(true);
    if (missing.length) return;
    setBusy(true);
    setError(null);
    try {
      const settings = settingsInput(plugin.settingFields, draft);
      if (installed) await client.request(ops.updatePluginSettings, { pluginId: plugin.id, settings });
      else await client.request(ops.installPlugin, { pluginId: plugin.id, settings });
      notifications.show({
        color: 'teal',
        message: installed ? `${plugin.name} settings saved.` : `${plugin.name} is installed.`,
      });
      onSaved();
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={650}>{installed ? `${plugin.name} settings` : `Install ${plugin.name}`}</Text>}
      size="lg"
      centered
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="md">
          {plugin.settingFields.map((f) => {
            const description = f.description ?? undefined;
            const fieldError = tried && missing.includes(f) ? `${f.label} is required.` : undefined;
            if (f.kind === 'boolean') {
              return (
                <Switch
                  key={f.key}
                  label={f.label}
                  description={description}
                  checked={draft.flag[f.key] ?? false}
                  onChange={(e) => setDraft((d) => ({ ...d, flag: { ...d.flag, [f.key]: e.currentTarget.checked } }))}
                />
              );
            }
            if (f.kind === 'project') {
              return (
                <ProjectField
                  key={f.key}
                  label={f.label}
                  description={description}
                  required={f.required}
                  value={draft.text[f.key] ?? ''}
                  onChange={(v) => setText(f.key, v)}
                />
              );
            }
            if (f.kind === 'secret') {
              const isSet = stored.find((v) => v.key === f.key)?.isSet === true && !draft.cleared[f.key];
              return (
                <Stack key={f.key} gap={4}>
                  <PasswordInput
                    label={f.label}
                    description={description}
                    withAsterisk={f.required}
                    placeholder={isSet ? 'Saved. Leave empty to keep it.' : undefined}
                    value={draft.text[f.key] ?? ''}
                    onChange={(e) => setText(f.key, e.currentTarget.value)}
                    error={fieldError}
                    autoComplete="off"
                  />
                  {isSet && (
                    <Group gap="xs">
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        onClick={() =>
                          setDraft((d) => ({
                            ...d,
                            text: { ...d.text, [f.key]: '' },
                            cleared: { ...d.cleared, [f.key]: true },
                          }))
                        }
                      >
                        Clear the saved {f.label.toLowerCase()}
                      </Button>
                    </Group>
                  )}
                  {draft.cleared[f.key] && (
                    <Text size="xs" c="dimmed">
                      The saved value will be removed when you save.
                    </Text>
                  )}
                </Stack>
              );
            }
            return (
              <TextInput
                key={f.key}
                label={f.label}
                description={description}
                withAsterisk={f.required}
                value={draft.text[f.key] ?? ''}
                onChange={(e) => setText(f.key, e.currentTarget.value)}
                error={fieldError}
              />
            );
          })}
          {installed && (
            <ExtensionSlot
              name="integration.settings.page/v1"
              props={{
                workspace: { id: workspace.id, name: workspace.name, subdomain: workspace.subdomain },
                pluginId: plugin.id,
              }}
              extensions={own}
              names={{ [plugin.id]: plugin.name }}
            />
          )}
          <ErrorAlert error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {installed ? 'Save settings' : 'Install'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
