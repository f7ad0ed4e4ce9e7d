import { Center, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconPlugConnected } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { useQuery } from '../../api/hooks.ts';
import { ops, type UserIntegration } from '../../api/operations.ts';
import { SectionLoader } from '../../common/Loading.tsx';
import { extensionLabel } from '../../extensions/SlotBoundary.tsx';
import { MessageCard } from '../../common/MessagePage.tsx';
import { safeOrigin } from './integration-urls.ts';
import { useStartAuthorization } from './IntegrationsPage.tsx';

/** `/account/integration/oauth/:integration/confirm?origin=…`: the provider sent the person back. */
export function IntegrationConfirmPage() {
  const { integration = '' } = useParams();
  const [params] = useSearchParams();
  const back = safeOrigin(params.get('origin'), '/settings/user/integrations');
  const q = useQuery<{ myIntegrations: UserIntegration[] }>(ops.myIntegrations);
  const name =
    q.data?.myIntegrations.find((i) => i.plugin.id === integration)?.plugin.name ?? extensionLabel(integration);
  if (q.loading && !q.data) return <SectionLoader label="Loading" />;
  return (
    <Center pt={48}>
      <MessageCard
        icon={<IconCheck size={24} />}
        title={`${name} is connected`}
        actions={[{ label: 'Go back', to: back, primary: true }]}
      >
        <Text size="sm">You can close this page or go back to where you started.</Text>
      </MessageCard>
    </Center>
  );
}

/** `/integrations/authorize?integration=<id>&source=…&origin=…`: starts connecting at once. */
export function AuthorizeIntegrationPage() {
  const [params] = useSearchParams();
  const integration = params.get('integration') ?? '';
  const source = params.get('source') || 'link';
  const back = safeOrigin(params.get('origin'), '/settings/user/integrations');
  const start = useStartAuthorization();
  const [error, setError] = useState<string | null>(
    integration ? null : 'The link does not say which integration to connect.',
  );
  const started = useRef(false);

  useEffect(() => {
    if (!integration || started.current) return;
    started.current = true;
    start(integration, source, back).catch((err: unknown) => setError(describeError(err).message));
  }, [integration, source, back, start]);

  if (!error) {
    return (
      <Center pt={48}>
        <MessageCard icon={<IconPlugConnected size={24} />} title="Taking you to connect your account…">
          <Text size="sm">You will be asked to allow access at the other service.</Text>
        </MessageCard>
      </Center>
    );
  }
  return (
    <Center pt={48}>
      <MessageCard
        icon={<IconAlertTriangle size={24} />}
        title="The account could not be connected"
        actions={[{ label: 'Go back', to: back, primary: true }]}
      >
        <Text size="sm">{error}</Text>
      </MessageCard>
    </Center>
  );
}
