import { Box, Menu, Text } from '@mantine/core';
import { IconLogout, IconPlus, IconSwitchHorizontal, IconUser } from '@tabler/icons-react';
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { ThemeMenuItems } from './ThemeMenuItems.tsx';

/**
 * The header's two menus, loaded on first use (see LazyMenu in WorkspaceLayout): menus bring
 * popover positioning along, which no page needs before someone opens one. `trigger` is the button
 * already drawn in the header; `opened` opens the menu as it mounts, for the click that loaded it.
 * No focus placeholder in the dropdown: a menu may hold only its items (axe, aria-required-children),
 * and focus goes to the first item, as the ARIA menu pattern has it.
 */
export interface HeaderMenuProps {
  trigger: ReactElement;
  opened: boolean;
}

export function WorkspaceMenu({ trigger, opened, subdomain }: HeaderMenuProps & { subdomain: string }) {
  return (
    <Menu position="bottom-start" width={260} shadow="md" defaultOpened={opened} withInitialFocusPlaceholder={false}>
      <Menu.Target>{trigger}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{subdomain}</Menu.Label>
        <Menu.Item component={Link} to="/auth/workspaces" leftSection={<IconSwitchHorizontal size={16} aria-hidden />}>
          Switch workspace
        </Menu.Item>
        <Menu.Item component={Link} to="/auth/create-workspace" leftSection={<IconPlus size={16} aria-hidden />}>
          Create a workspace
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function AccountMenu({ trigger, opened, name, detail }: HeaderMenuProps & { name: string; detail: string }) {
  return (
    <Menu position="bottom-end" width={240} shadow="md" defaultOpened={opened} withInitialFocusPlaceholder={false}>
      <Menu.Target>{trigger}</Menu.Target>
      <Menu.Dropdown>
        <Box px="sm" py={6}>
          <Text size="sm" fw={600} truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {detail}
          </Text>
        </Box>
        <Menu.Divider />
        <Menu.Item component={Link} to="/settings/user/account" leftSection={<IconUser size={16} aria-hidden />}>
          Account settings
        </Menu.Item>
        <ThemeMenuItems />
        <Menu.Divider />
        <Menu.Item component={Link} to="/auth/logout" leftSection={<IconLogout size={16} aria-hidden />}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
