import { Center, Text } from '@mantine/core';
import { IconCompass, IconBuildingCommunity } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { MessageCard, MessagePage } from './MessagePage.tsx';

/** The page for a path the app does not know. */
export function NotFoundContent() {
  const { pathname } = useLocation();
  return (
    <Center pt={48}>
      <MessageCard
        icon={<IconCompass size={26} />}
        code="Error 404"
        title="Page not found"
        actions={[
          { label: 'Go to home', to: '/', primary: true },
          { label: 'Your workspaces', to: '/auth/workspaces' },
        ]}
      >
        <Text size="sm">
          There is no page at{' '}
          <Text span ff="monospace" fz="sm">
            {pathname}
          </Text>
          . Check the address, or follow a link from the home page.
        </Text>
      </MessageCard>
    </Center>
  );
}

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <MessagePage
      icon={<IconCompass size={26} />}
      code="Error 404"
      title="Page not found"
      actions={[
        { label: 'Go to home', to: '/', primary: true },
        { label: 'Your workspaces', to: '/auth/workspaces' },
      ]}
    >
      <Text size="sm">
        There is no page at{' '}
        <Text span ff="monospace" fz="sm">
          {pathname}
        </Text>
        . Check the address, or follow a link from the home page.
      </Text>
    </MessagePage>
  );
}

/** The workspace in the address (or remembered) does not exist, or no longer does. */
export function WorkspaceNotFoundPage({ onChooseAnother }: { onChooseAnother: () => void }) {
  return (
    <MessagePage
      icon={<IconBuildingCommunity size={26} />}
      code="Error 404"
      title="Workspace not found"
      actions={[{ label: 'Choose a workspace', onClick: onChooseAnother, primary: true }]}
    >
      <Text size="sm">
        We couldn’t find this workspace. It may have been renamed or deleted, or the link may be mistyped. Choose one of
        your workspaces instead, or ask the person who shared the link for a new one.
      </Text>
    </MessagePage>
  );
}
