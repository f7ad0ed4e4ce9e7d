import { Button, Checkbox, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ops, type Role } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { useServices } from '../session/SessionProvider.tsx';
import { useWorkspace } from '../session/WorkspaceProvider.tsx';
import { parseEmails } from './emails.ts';
import { ROLE_HINTS, invitableRoles, roleChoice, roleLabel } from './roles.ts';

const MESSAGE_MAX = 500;

/** Invites people by email with a role no higher than the inviter's own (002 §6). */
export function InviteDialog({
  opened,
  onClose,
  onInvited,
}: {
  opened: boolean;
  onClose: () => void;
  onInvited: () => void;
}) {
  const { client } = useServices();
  const { workspace, membership } = useWorkspace();
  const roles = invitableRoles(membership).filter((r) => r !== 'WORKSPACE_ADMIN');
  const canMakeAdmin = invitableRoles(membership).includes('WORKSPACE_ADMIN');
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState<Role>(roles.includes('CONTRIBUTOR') ? 'CONTRIBUTOR' : 'VIEWER');
  const [admin, setAdmin] = useState(false);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const parsed = parseEmails(emails);
  const emailError =
    tried &&
    (parsed.invalid.length
      ? `Not email addresses: ${parsed.invalid.join(', ')}`
      : !parsed.valid.length
        ? 'Enter at least one email address.'
        : null);

  async function send() {
    setTried(true);
    if (parsed.invalid.length || !parsed.valid.length) return;
    setBusy(true);
    setError(null);
    try {
      const c = roleChoice(role);
      await client.request(ops.inviteMembers, {
        input: {
          emails: parsed.valid,
          role: c.role,
          workspaceAdmin: admin && canMakeAdmin,
          message: message.trim() || null,
        },
      });
      notifications.show({
        color: 'teal',
        title: 'Invitations sent',
        message: `We emailed ${parsed.valid.join(', ')}.`,
      });
      setEmails('');
      setMessage('');
      setTried(false);
      onInvited();
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
      title={<Text fw={650}>Invite people to {workspace.name}</Text>}
      size="lg"
      centered
    >
      <Stack gap="md">
        <Textarea
          label="Email addresses"
          description="Separate addresses with commas, spaces or new lines."
          value={emails}
          onChange={(e) => setEmails(e.currentTarget.value)}
          autosize
          minRows={2}
          required
          data-autofocus
          error={emailError || undefined}
        />
        <Select
          label="Role"
          description={ROLE_HINTS[role]}
          data={roles.map((r) => ({ value: r, label: roleLabel(r) }))}
          value={role}
          onChange={(v) => v && setRole(v as Role)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        {canMakeAdmin && (
          <Checkbox
            label="Also make them workspace admins"
            description={ROLE_HINTS.WORKSPACE_ADMIN}
            checked={admin}
            onChange={(e) => setAdmin(e.currentTarget.checked)}
          />
        )}
        <Textarea
          label="Personal message (optional)"
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          maxLength={MESSAGE_MAX}
          autosize
          minRows={2}
          description={`${message.length} of ${MESSAGE_MAX} characters`}
        />
        <ErrorAlert error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void send()} loading={busy}>
            Send invitations
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
