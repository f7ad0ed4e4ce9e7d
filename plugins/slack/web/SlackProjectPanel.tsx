import { useGraphQL, type SlotProps } from '@fieldbook/extensions-sdk/web';

interface SlackStatus {
  plugins: Array<{
    id: string;
    installation: {
      connectedAccount: { label: string | null } | null;
      settings: Array<{ key: string; text: string | null }>;
    } | null;
  }>;
}

const STATUS = '{ plugins { id installation { connectedAccount { label } settings { key text } } } }';

/**
 * Tells a project's managers what Slack does here: which Slack workspace is connected, and
 * whether this project is where saved messages go.
 */
export function SlackProjectPanel({ projectId }: SlotProps['project.settings.panel/v1']) {
  const { data, error, loading } = useGraphQL<SlackStatus>(STATUS);
  const slack = data?.plugins.find((p) => p.id === 'slack')?.installation;
  const account = slack?.connectedAccount?.label;
  const target = slack?.settings.find((s) => s.key === 'projectId')?.text;
  return (
    <section
      aria-labelledby="slack-panel-title"
      style={{ border: '1px solid var(--mantine-color-gray-3, #dee2e6)', borderRadius: 8, padding: 12 }}
    >
      <h3 id="slack-panel-title" style={{ margin: '0 0 6px', fontSize: 15 }}>
        Slack
      </h3>
      {loading && !data ? (
        <p style={{ margin: 0, fontSize: 14 }}>Loading Slack…</p>
      ) : error ? (
        <p role="alert" style={{ margin: 0, fontSize: 14 }}>
          Slack’s status could not be loaded: {error.message}
        </p>
      ) : (
        <p style={{ margin: 0, fontSize: 14 }}>
          {account
            ? `Connected to the Slack workspace ${account}. `
            : 'No Slack workspace is connected yet; an admin connects one in Integrations. '}
          {target === projectId
            ? 'Messages saved with “Save to Fieldbook” become notes in this project.'
            : 'Messages saved with “Save to Fieldbook” go to another project; an admin can choose this one in the Slack settings.'}
        </p>
      )}
    </section>
  );
}
