import { Box, Button, Paper, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { isNotFound } from '../ui/errors.ts';
import { useLoad } from '../ui/hooks.ts';
import { NotFoundPanel, SectionLoader, WIDTHS, notifyError, usePageTitle } from '../ui/layout.tsx';

const MINE = 'query($projectId: ID!) { myAccessRequest(projectId: $projectId) { id role status } }';
const ASK = 'mutation($input: RequestProjectAccessInput!) { requestProjectAccess(input: $input) { id role status } }';
const MESSAGE_MAX = 1000;

interface Pending {
  id: string;
  role: 'VIEWER' | 'CONTRIBUTOR';
  status: string;
}

/**
 * What a member sees on a project (or an item in it) they cannot read: "You don't have access"
 * and a request for Viewer or Contributor access, which the project's managers approve or deny.
 * A project that does not exist in the workspace stays "not found".
 */
export function RequestAccessPanel({
  projectId,
  viewerOnly,
  item = false,
}: {
  projectId: string;
  viewerOnly: boolean /** Opened from a note, insight or highlight: neither it nor its project is named. */;
  item?: boolean;
}) {
  usePageTitle('You don’t have access');
  const { graphql } = useFieldbook();
  const mine = useLoad<{ myAccessRequest: Pending | null }>(MINE, { projectId });
  const [role, setRole] = useState<'VIEWER' | 'CONTRIBUTOR'>('VIEWER');
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);

  if (isNotFound(mine.error))
    return <NotFoundPanel what="This project" back={{ label: 'Go to projects', to: '/projects' }} />;
  if (mine.loading && !mine.data) return <SectionLoader label="Loading…" />;
  const pending = sent ?? mine.data?.myAccessRequest ?? null;

  async function submit() {
    setBusy(true);
    try {
      const res = await graphql<{ requestProjectAccess: Pending }>(ASK, {
        input: { projectId, role, message: message.trim() || null },
      });
      setSent(res.requestProjectAccess);
    } catch (err) {
      notifyError(err, 'The request was not sent');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box maw={WIDTHS.content} mx="auto" mt="xl">
      <Paper withBorder p="xl" radius="md">
        <Stack gap="md" align="stretch">
          <Stack gap={4} align="center">
            <IconLock size={28} aria-hidden />
            <Title order={1} fz="h3">
              You don’t have access
            </Title>
            <Text size="sm" c="dimmed" ta="center">
              {item ? 'This item is in a project you don’t have access to.' : 'This project is restricted.'} Ask its
              managers for access; you will be notified when they decide.
            </Text>
          </Stack>
          {pending ? (
            <Text ta="center" fw={500} role="status">
              Access requested as {pending.role === 'VIEWER' ? 'Viewer' : 'Contributor'}. Waiting for a project manager.
            </Text>
          ) : (
            <>
              <div>
                <Text size="sm" fw={500} mb={4} id="request-role-label">
                  Role
                </Text>
                <SegmentedControl
                  aria-labelledby="request-role-label"
                  value={role}
                  onChange={(v) => setRole(v as 'VIEWER' | 'CONTRIBUTOR')}
                  data={[
                    { value: 'VIEWER', label: 'Viewer' },
                    { value: 'CONTRIBUTOR', label: 'Contributor', disabled: viewerOnly },
                  ]}
                />
              </div>
              <Textarea
                label="Message (optional)"
                description={`At most ${MESSAGE_MAX.toLocaleString('en')} characters.`}
                value={message}
                maxLength={MESSAGE_MAX}
                autosize
                minRows={2}
                onChange={(e) => setMessage(e.currentTarget.value)}
              />
              <Button onClick={() => void submit()} loading={busy}>
                Request access
              </Button>
            </>
          )}
        </Stack>
      </Paper>
    </Box>
  );
}
