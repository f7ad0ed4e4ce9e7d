import type { SlotProps } from '@fieldbook/extensions-sdk/web';

const code = {
  fontFamily: 'var(--mantine-font-family-monospace, monospace)',
  fontSize: 13,
  background: 'var(--mantine-color-gray-1, #f1f3f5)',
  padding: '1px 4px',
  borderRadius: 4,
};

/**
 * What an admin sets up in the Slack app itself, beside Fieldbook's settings: where Slack sends
 * events and shortcuts, and the shortcut that saves a message.
 */
export function SlackSettingsPage(_props: SlotProps['integration.settings.page/v1']) {
  const requestUrl = `${window.location.origin}/slack/webhook`;
  return (
    <section
      aria-labelledby="slack-setup-title"
      style={{ borderTop: '1px solid var(--mantine-color-gray-3, #dee2e6)', paddingTop: 12 }}
    >
      <h3 id="slack-setup-title" style={{ margin: '0 0 6px', fontSize: 15 }}>
        Set up the Slack app
      </h3>
      <ol style={{ margin: 0, paddingLeft: 20, fontSize: 14, lineHeight: 1.6 }}>
        <li>
          Under <strong>Event Subscriptions</strong> and <strong>Interactivity</strong>, set the request URL to{' '}
          <span style={code}>{requestUrl}</span>.
        </li>
        <li>
          Add a message shortcut with the callback ID <span style={code}>save_to_fieldbook</span>, named “Save to
          Fieldbook”.
        </li>
        <li>Connect the Slack workspace under Integrations, then enable Slack on the project chosen above.</li>
      </ol>
    </section>
  );
}
