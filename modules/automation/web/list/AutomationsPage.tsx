import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Anchor, Badge, Button, Group, Switch, Table, Text } from '@mantine/core';
import { ListPage } from '@fieldbook/agents/web/list-page';
import { IconBolt, IconPlus } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { errorText, Q, STATUS_COLOR, type Automation } from '../api.ts';
import { SettingsPanel } from './SettingsPanel.tsx';

/** /automation: every automation the person can see, whether it is on, and how its last run went. */
export function AutomationsPage() {
  const host = useFieldbook();
  const [items, setItems] = useState<Automation[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setItems((await host.graphql<{ automations: Automation[] }>(Q.list)).automations);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [host]);
  useEffect(() => {
    document.title = 'Automation · Fieldbook';
    void load();
  }, [load]);

  const toggle = async (a: Automation, enabled: boolean) => {
    try {
      const next = (await host.graphql<{ setAutomationEnabled: Automation }>(Q.enable, { id: a.id, enabled }))
        .setAutomationEnabled;
      setItems((list) => list?.map((x) => (x.id === a.id ? next : x)) ?? null);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <ListPage
      title="Automation"
      intro="When something happens in a project, or on a schedule, Fieldbook does the work for you."
      action={
        <Button component={Link} to="/automation/new" leftSection={<IconPlus size={16} aria-hidden />}>
          New automation
        </Button>
      }
      error={error}
      loading={items === null}
      loadingLabel="Loading automations"
      empty={
        items?.length === 0
          ? {
              icon: <IconBolt size={28} aria-hidden />,
              title: 'No automations yet',
              text: 'Tag new notes, post published insights to Slack, or send a digest every Monday.',
            }
          : null
      }
    >
      {items && items.length > 0 && (
        <Table highlightOnHover verticalSpacing="sm" aria-label="Automations">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Automation</Table.Th>
              <Table.Th>Trigger</Table.Th>
              <Table.Th>Last run</Table.Th>
              <Table.Th>On</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((a) => (
              <Table.Tr key={a.id} data-testid="automation-row">
                <Table.Td>
                  <Anchor component={Link} to={`/automation/${a.id}`} fw={600}>
                    {a.title}
                  </Anchor>
                  {a.disabledReason && (
                    <Text size="xs" c="red.8">
                      Stopped: {a.disabledReason}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {a.trigger.type === 'Schedule'
                      ? `${a.trigger.recurrence?.frequency ?? ''} at ${a.trigger.recurrence?.time ?? ''}`
                      : a.trigger.eventKey}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {a.lastRun ? (
                    <Group gap="xs">
                      <Badge color={STATUS_COLOR[a.lastRun.status]} variant="light">
                        {a.lastRun.status}
                      </Badge>
                      <Text size="xs" c="dimmed">
                        {new Date(a.lastRun.createdAt).toLocaleString()}
                      </Text>
                    </Group>
                  ) : (
                    <Text size="sm" c="dimmed">
                      Never run
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Switch
                    checked={a.enabled}
                    onChange={(e) => void toggle(a, e.currentTarget.checked)}
                    aria-label={`${a.title} is ${a.enabled ? 'on' : 'off'}`}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {host.permissions.includes('workspace:admin') && <SettingsPanel />}
    </ListPage>
  );
}
