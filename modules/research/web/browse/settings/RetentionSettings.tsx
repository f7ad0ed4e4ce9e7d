import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useEffect, useState } from 'react';
import { errorCode } from '../ui/errors.ts';
import { formatDate, useAction, useLoad } from '../ui/hooks.ts';
import { ErrorNote, SectionLoader, notifyDone } from '../ui/layout.tsx';

interface Retention {
  retentionDays: number | null;
  options: number[];
  warningDays: number;
  trashDays: number;
  latestWarning: { deleteAfter: string; noteCount: number; insightCount: number } | null;
}

const QUERY =
  'query BrowseRetention { dataRetention { retentionDays options warningDays trashDays latestWarning { deleteAfter noteCount insightCount } } }';
const UPDATE =
  'mutation BrowseUpdateRetention($days: Int) { updateDataRetention(retentionDays: $days) { retentionDays } }';

/** /projects/{projectId}/settings/data-retention: the workspace's retention period, which applies to this project too. */
export function RetentionSettings() {
  const { graphql } = useFieldbook();
  const r = useLoad<{ dataRetention: Retention }>(QUERY);
  const [days, setDays] = useState('');
  const save = useAction((d: number | null) => graphql(UPDATE, { days: d }));
  const current = r.data?.dataRetention;
  useEffect(() => setDays(current?.retentionDays ? String(current.retentionDays) : ''), [current?.retentionDays]);

  return (
    <Paper withBorder p="lg">
      <Title order={2} fz="lg" mb={4}>
        Data retention
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Data retention is set for the whole workspace: notes and insights older than the period are deleted, this
        project’s included.
      </Text>
      {errorCode(r.error) === 'FORBIDDEN' ? (
        <Text size="sm">
          Only workspace admins can see and change data retention. Ask an admin if this project’s data must be kept for
          a set time.
        </Text>
      ) : r.error && !r.data ? (
        <ErrorNote error={r.error} onRetry={() => void r.reload()} />
      ) : !current ? (
        <SectionLoader />
      ) : (
        <Stack gap="md">
          <Select
            label="Delete notes and insights older than"
            data={[
              { value: '', label: 'Keep everything (off)' },
              ...current.options.map((o) => ({ value: String(o), label: `${o} days` })),
            ]}
            value={days}
            onChange={(v) => setDays(v ?? '')}
            allowDeselect={false}
            maw={320}
          />
          <Text size="sm" c="dimmed">
            Admins are warned {current.warningDays} days before anything is deleted; the trash keeps items{' '}
            {current.trashDays} days.
          </Text>
          {current.latestWarning && (
            <Text size="sm">
              {current.latestWarning.noteCount} notes and {current.latestWarning.insightCount} insights will be deleted
              after {formatDate(current.latestWarning.deleteAfter)}.
            </Text>
          )}
          <ErrorNote error={save.error} title="Data retention was not changed" />
          <Group justify="flex-end">
            <Button
              disabled={days === (current.retentionDays ? String(current.retentionDays) : '')}
              loading={save.busy}
              onClick={async () => {
                if (await save.run(days ? Number(days) : null)) {
                  notifyDone(
                    days ? `Notes and insights older than ${days} days will be deleted.` : 'Data retention is off.',
                  );
                  void r.reload();
                }
              }}
            >
              Save
            </Button>
          </Group>
        </Stack>
      )}
    </Paper>
  );
}
