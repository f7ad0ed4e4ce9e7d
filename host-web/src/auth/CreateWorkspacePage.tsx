import { Anchor, Button, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ops, type Region, type Workspace } from '../api/operations.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { AuthLayout } from '../layout/AuthLayout.tsx';
import { REGIONS } from './regions.ts';
import { useServices, useSession } from '../session/SessionProvider.tsx';

const regionData = ['United States', 'Europe', 'Australia'].map((group) => ({
  group,
  items: REGIONS.filter((r) => r.group === group).map((r) => ({ value: r.value, label: r.label })),
}));

const TEAM_NAME_MAX = 200;

/** Workspaces get subdomains only where the app runs on a real domain (not localhost or an IP). */
function subdomainHostOf(location: Location): string | null {
  const host = location.hostname;
  if (host === 'localhost' || /^[\d.]+$/.test(host) || host.includes(':')) return null;
  return location.host;
}

export function CreateWorkspacePage() {
  const { client } = useServices();
  const session = useSession();
  const navigate = useNavigate();
  const [teamName, setTeamName] = useState('');
  const [subdomain, setSubdomain] = useState('');
  const [subdomainEdited, setSubdomainEdited] = useState(false);
  const [region, setRegion] = useState<Region>('US_B');
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [debouncedName] = useDebouncedValue(teamName, 300);
  const subdomainHost = subdomainHostOf(window.location);

  useEffect(() => {
    if (subdomainEdited || !debouncedName.trim()) return;
    let stale = false;
    client
      .request<{ suggestSubdomain: string | null }>(
        ops.suggestSubdomain,
        { name: debouncedName.trim() },
        { workspace: false },
      )
      .then((r) => {
        if (!stale && r.suggestSubdomain) setSubdomain(r.suggestSubdomain);
      })
      .catch(() => {
        // A suggestion is a convenience; the person can type a subdomain themselves.
      });
    return () => {
      stale = true;
    };
  }, [debouncedName, subdomainEdited, client]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (!teamName.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const { createWorkspace } = await client.request<{
        createWorkspace: { workspace: Workspace; redirectUrl: string };
      }>(
        ops.createWorkspace,
        {
          input: {
            // The person is signed in already: their session is the proof the method names.
            method: 'AUTH0',
            teamName: teamName.trim(),
            subdomain: subdomain.trim() || null,
            region,
          },
        },
        { workspace: false },
      );
      session.setWorkspace(createWorkspace.workspace.id);
      navigate('/home', { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  return (
    <AuthLayout
      title="Create a workspace"
      subtitle="A workspace is where your team keeps its research. You can invite people next."
      width={480}
      footer={
        <Anchor component={Link} to="/auth/workspaces" fw={600}>
          Back to your workspaces
        </Anchor>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Workspace name"
            description="Usually your company or team name."
            value={teamName}
            onChange={(e) => setTeamName(e.currentTarget.value)}
            maxLength={TEAM_NAME_MAX}
            required
            autoFocus
            error={tried && !teamName.trim() ? 'Enter a name for the workspace.' : undefined}
          />
          <TextInput
            label="Subdomain"
            description={
              subdomainHost ? (
                <>
                  Your workspace’s address:{' '}
                  <Text span fz="xs" ff="monospace">
                    {subdomain || 'your-team'}.{subdomainHost}
                  </Text>
                </>
              ) : (
                'A short name for the workspace, used in its address. Lowercase letters, digits and hyphens.'
              )
            }
            value={subdomain}
            onChange={(e) => {
              setSubdomainEdited(true);
              setSubdomain(e.currentTarget.value.toLowerCase());
            }}
            maxLength={63}
            autoComplete="off"
            spellCheck={false}
          />
          <Select
            label="Data region"
            description="Where the workspace’s data is kept. It cannot be changed later."
            data={regionData}
            value={region}
            onChange={(v) => v && setRegion(v as Region)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          <ErrorAlert error={error} />
          <Button type="submit" loading={busy} fullWidth>
            Create workspace
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
