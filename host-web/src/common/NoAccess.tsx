import { Center, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { MessageCard } from './MessagePage.tsx';

/** Shown instead of admin screens to people who are not workspace admins. */
export function NeedsAdmin({ what }: { what: string }) {
  return (
    <Center pt={48}>
      <MessageCard
        icon={<IconLock size={24} />}
        title="You need to be a workspace admin"
        actions={[
          { label: 'Go to home', to: '/home', primary: true },
          { label: 'Your account settings', to: '/settings/user/account' },
        ]}
      >
        <Text size="sm">
          Only workspace admins can {what}. If you need this, ask one of your workspace admins to do it for you or to
          make you an admin.
        </Text>
      </MessageCard>
    </Center>
  );
}
