import { Anchor, Button, Group, Select, Stack, Stepper, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { ops, type User } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { AuthLayout } from '../layout/AuthLayout.tsx';
import { invitableRoles, roleChoice, roleLabel } from '../settings/roles.ts';
import { parseEmails } from '../settings/emails.ts';
import { useServices, useSession } from '../session/SessionProvider.tsx';
import { useWorkspace } from '../session/WorkspaceProvider.tsx';

/** /onboarding: a short guide for a new workspace: your name, then your team. */
export function OnboardingPage() {
  const { client } = useServices();
  const session = useSession();
  const { workspace, membership, reload } = useWorkspace();
  const [step, setStep] = useState(0);
  const [name, setName] = useState(session.user?.name ?? '');
  const [emails, setEmails] = useState('');
  const roles = invitableRoles(membership).filter((r) => r !== 'WORKSPACE_ADMIN');
  const [role, setRole] = useState(roles.includes('CONTRIBUTOR') ? 'CONTRIBUTOR' : (roles[0] ?? 'VIEWER'));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function saveName() {
    setBusy(true);
    setError(null);
    try {
      const { updateProfile } = await client.request<{ updateProfile: User }>(ops.updateProfile, { name: name.trim() });
      session.setUser(updateProfile);
      setStep(1);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function invite() {
    const { valid, invalid } = parseEmails(emails);
    if (invalid.length) {
      setError(new Error(`These are not email addresses: ${invalid.join(', ')}`));
      return;
    }
    if (!valid.length) return setStep(2);
    setBusy(true);
    setError(null);
    try {
      const c = roleChoice(role as never);
      await client.request(ops.inviteMembers, {
        input: { emails: valid, role: c.role, workspaceAdmin: c.workspaceAdmin },
      });
      notifications.show({
        color: 'teal',
        message: `Invitations sent to ${valid.length} ${valid.length === 1 ? 'person' : 'people'}.`,
      });
      void reload();
      setStep(2);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout
      title={`Set up ${workspace.name}`}
      subtitle="Two quick steps and your team is ready."
      width={560}
      footer={
        <Anchor component={Link} to="/home" fw={600}>
          Skip the guide and go to home
        </Anchor>
      }
    >
      <Stepper active={step} onStepClick={setStep} size="sm" allowNextStepsSelect={false}>
        <Stepper.Step label="Your profile" description="How teammates see you">
          <Stack gap="md" mt="md">
            <TextInput
              label="Your name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={100}
              required
              autoComplete="name"
            />
            <ErrorAlert error={error} />
            <Group justify="flex-end">
              <Button onClick={() => void saveName()} loading={busy} disabled={!name.trim()}>
                Continue
              </Button>
            </Group>
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Your team" description="Invite teammates">
          <Stack gap="md" mt="md">
            {roles.length ? (
              <>
                <Textarea
                  label="Email addresses"
                  description="Separate addresses with commas, spaces or new lines."
                  value={emails}
                  onChange={(e) => setEmails(e.currentTarget.value)}
                  autosize
                  minRows={3}
                />
                <Select
                  label="Role"
                  data={roles.map((r) => ({ value: r, label: roleLabel(r) }))}
                  value={role}
                  onChange={(v) => v && setRole(v as never)}
                  allowDeselect={false}
                />
              </>
            ) : (
              <Text size="sm">Your role cannot invite people. Ask a workspace admin to invite your teammates.</Text>
            )}
            <ErrorAlert error={error} />
            <Group justify="space-between">
              <Button variant="subtle" onClick={() => setStep(2)}>
                Skip for now
              </Button>
              {roles.length > 0 && (
                <Button onClick={() => void invite()} loading={busy}>
                  Send invitations
                </Button>
              )}
            </Group>
          </Stack>
        </Stepper.Step>
        <Stepper.Completed>
          <Stack gap="md" mt="md" align="flex-start">
            <Text size="sm">All set. Your workspace is ready for your team’s research.</Text>
            <Group>
              <Button component={Link} to="/onboarding/project-setup">
                Start your first project
              </Button>
              <Button component={Link} to="/home" variant="default">
                Go to home
              </Button>
            </Group>
          </Stack>
        </Stepper.Completed>
      </Stepper>
    </AuthLayout>
  );
}
