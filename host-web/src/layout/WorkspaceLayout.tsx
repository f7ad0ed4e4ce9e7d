import {
  AppShell,
  Avatar,
  Box,
  Burger,
  Group,
  NavLink,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconBell,
  IconChevronDown,
  IconClipboardList,
  IconHome,
  IconKey,
  IconPlugConnected,
  IconPuzzle,
  IconShieldLock,
  IconSparkles,
  IconUser,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { LAYOUT } from '../app/theme.ts';
import { TeamAvatar } from '../auth/TeamAvatar.tsx';
import { Logo } from '../common/Logo.tsx';
import { useExtensions } from '../extensions/ExtensionsProvider.tsx';
import { roleLabel } from '../settings/roles.ts';
import { useSession } from '../session/SessionProvider.tsx';
import { useWorkspace } from '../session/WorkspaceProvider.tsx';
import { LazyMenu } from './LazyMenu.tsx';
import { CommandPalette } from './CommandPalette.tsx';
import { NotificationBell } from './NotificationBell.tsx';

interface NavItem {
  label: string;
  to: string;
  icon: ReactNode;
  show: boolean;
}

function NavSection({ title, items, onNavigate }: { title?: string; items: NavItem[]; onNavigate: () => void }) {
  const { pathname } = useLocation();
  const visible = items.filter((i) => i.show);
  if (!visible.length) return null;
  return (
    <Box>
      {title && (
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4} mt="md">
          {title}
        </Text>
      )}
      {visible.map((item) => {
        const active = pathname === item.to || pathname.startsWith(`${item.to}/`);
        return (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            leftSection={item.icon}
            active={active}
            aria-current={active ? 'page' : undefined}
            onClick={onNavigate}
            className="nav-link"
            style={{ borderRadius: 8 }}
            variant="light"
          />
        );
      })}
    </Box>
  );
}

/** The workspace app: header with workspace and account menus, sidebar navigation, content. */
export function WorkspaceLayout({ children }: { children?: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const session = useSession();
  const { workspace, membership, can, isAdmin } = useWorkspace();
  const extensions = useExtensions();
  const user = session.user!;

  const main: NavItem[] = [
    { label: 'Home', to: '/home', icon: <IconHome size={18} aria-hidden />, show: true },
    ...extensions.navigation
      .filter((n) => !n.permission || can(n.permission))
      .map((n) => {
        const Icon = n.icon ?? IconClipboardList;
        return { label: n.label, to: n.to, icon: <Icon size={18} aria-hidden />, show: true };
      }),
  ];
  const settings: NavItem[] = [
    {
      label: 'Members',
      to: '/settings/users',
      icon: <IconUsers size={18} aria-hidden />,
      show: can('invites:send') || isAdmin,
    },
    { label: 'Groups', to: '/settings/groups', icon: <IconUsersGroup size={18} aria-hidden />, show: isAdmin },
    { label: 'Security', to: '/settings/security', icon: <IconShieldLock size={18} aria-hidden />, show: isAdmin },
    { label: 'Extensions', to: '/settings/extensions', icon: <IconPuzzle size={18} aria-hidden />, show: isAdmin },
    { label: 'AI', to: '/settings/ai', icon: <IconSparkles size={18} aria-hidden />, show: can('aiConfig:manage') },
    {
      label: 'Integrations',
      to: '/settings/integrations',
      icon: <IconPlugConnected size={18} aria-hidden />,
      show: isAdmin,
    },
    {
      label: 'Audit log',
      to: '/audit-log',
      icon: <IconClipboardList size={18} aria-hidden />,
      show: can('auditLogs:read'),
    },
  ];
  const personal: NavItem[] = [
    { label: 'Account', to: '/settings/user/account', icon: <IconUser size={18} aria-hidden />, show: true },
    {
      label: 'Notifications',
      to: '/settings/user/notifications',
      icon: <IconBell size={18} aria-hidden />,
      show: true,
    },
    {
      label: 'Your integrations',
      to: '/settings/user/integrations',
      icon: <IconPlugConnected size={18} aria-hidden />,
      show: true,
    },
    { label: 'API tokens', to: '/settings/user/api-tokens', icon: <IconKey size={18} aria-hidden />, show: true },
  ];

  return (
    <AppShell
      header={{ height: LAYOUT.header }}
      navbar={{ width: LAYOUT.sidebar, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
            />
            <Link to="/home" aria-label="Fieldbook home" style={{ textDecoration: 'none' }}>
              <Box visibleFrom="sm">
                <Logo size={26} />
              </Box>
              <Box hiddenFrom="sm">
                <Logo size={26} withText={false} />
              </Box>
            </Link>
            <Text c="gray.4" aria-hidden visibleFrom="sm">
              /
            </Text>
            <LazyMenu
              trigger={
                <UnstyledButton px={6} py={4} style={{ borderRadius: 8 }}>
                  <Group gap={8} wrap="nowrap">
                    <TeamAvatar team={workspace} size={26} />
                    <Text fw={600} size="sm" truncate maw={{ base: 150, sm: 260 }}>
                      {workspace.name}
                    </Text>
                    <VisuallyHidden>workspace menu</VisuallyHidden>
                    <IconChevronDown size={14} aria-hidden />
                  </Group>
                </UnstyledButton>
              }
              render={(menus, trigger, opened) => (
                <menus.WorkspaceMenu trigger={trigger} opened={opened} subdomain={workspace.subdomain} />
              )}
            />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <NotificationBell />
            <LazyMenu
              trigger={
                <UnstyledButton
                  aria-label={`Account: ${user.name || user.email}. Open account menu`}
                  style={{ borderRadius: 999 }}
                >
                  <Avatar color="indigo" radius="xl" size={34} aria-hidden>
                    {(user.name || user.email).slice(0, 1).toUpperCase()}
                  </Avatar>
                </UnstyledButton>
              }
              render={(menus, trigger, opened) => (
                <menus.AccountMenu
                  trigger={trigger}
                  opened={opened}
                  name={user.name || user.email}
                  detail={`${user.email} · ${roleLabel(membership.effectiveRole)}`}
                />
              )}
            />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Main navigation">
        {/* The browser's own scrolling, scrollbar hidden: Mantine's ScrollArea brings popover code along. */}
        <Box style={{ flex: 1, overflowY: 'auto', scrollbarWidth: 'none' }}>
          <Stack gap={2}>
            <NavSection items={main} onNavigate={close} />
            <NavSection title="Workspace" items={settings} onNavigate={close} />
            <NavSection title="You" items={personal} onNavigate={close} />
          </Stack>
        </Box>
      </AppShell.Navbar>
      <CommandPalette
        actions={[
          ...[...main, ...settings, ...personal]
            .filter((i) => i.show)
            .map((i) => ({ id: `go:${i.to}`, label: i.label, hint: 'Go to', to: i.to })),
          ...(can('projects:create')
            ? [
                { id: 'do:new-project', label: 'New project', hint: 'Action', to: '/projects/new' },
                { id: 'do:import-project', label: 'Import a project', hint: 'Action', to: '/projects/import' },
              ]
            : []),
          { id: 'do:search', label: 'Search everything', hint: 'Action', to: '/search' },
          { id: 'do:shortcuts', label: 'Keyboard shortcuts', hint: 'Help', to: '#shortcuts' },
        ]}
      />
      <AppShell.Main id="main" bg="var(--fb-page-bg)">
        {children ?? <Outlet />}
      </AppShell.Main>
    </AppShell>
  );
}
