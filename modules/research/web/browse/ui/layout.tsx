import {
  Alert,
  Anchor,
  Box,
  Breadcrumbs,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconMoodEmpty } from '@tabler/icons-react';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { describeError, errorLine } from './errors.ts';

/** Layout widths of 000 §9: reading content, wide content, and the most anything spans. */
export const WIDTHS = { content: 864, wide: 1084, max: 1200 } as const;

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Fieldbook` : 'Fieldbook';
  }, [title]);
}

export interface Crumb {
  label: string;
  to?: string;
}

/** A research page: breadcrumbs, heading, a line about it, actions on the right, then the content. */
export function PageFrame({
  title,
  heading,
  description,
  actions,
  crumbs,
  width = 'wide',
  children,
}: {
  title: string;
  /** Replaces the plain heading (e.g. an editable title); must render the page's h1. */
  heading?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  crumbs?: Crumb[];
  width?: keyof typeof WIDTHS;
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <Box maw={WIDTHS[width]} mx="auto" w="100%">
      {crumbs && crumbs.length > 0 && (
        <Breadcrumbs mb="xs" separatorMargin={6} aria-label="Breadcrumb" fz="sm">
          {crumbs.map((c) =>
            c.to ? (
              <Anchor key={c.label} component={Link} to={c.to} size="sm" c="dimmed">
                {c.label}
              </Anchor>
            ) : (
              <Text key={c.label} size="sm" c="dimmed">
                {c.label}
              </Text>
            ),
          )}
        </Breadcrumbs>
      )}
      <Group justify="space-between" align="flex-end" mb="lg" gap="md" wrap="wrap">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          {heading ?? (
            <Title order={1} fz={26} lh={1.2}>
              {title}
            </Title>
          )}
          {description && (
            <Text size="sm" c="dimmed" component="div">
              {description}
            </Text>
          )}
        </Stack>
        {actions && <Group gap="sm">{actions}</Group>}
      </Group>
      {children}
    </Box>
  );
}

export function SectionLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="sm" aria-label={label} />
    </Center>
  );
}

export function ErrorNote({ error, title, onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  if (!error) return null;
  const d = describeError(error);
  return (
    <Alert
      color="red"
      variant="light"
      title={title ?? d.title}
      icon={<IconAlertCircle size={18} aria-hidden />}
      role="alert"
    >
      <Text size="sm">{d.message}</Text>
      {d.next && (
        <Text size="sm" mt={4}>
          {d.next}
        </Text>
      )}
      {onRetry && (
        <Button size="compact-sm" variant="white" color="red" mt="sm" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Alert>
  );
}

export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Paper withBorder p="xl" ta="center">
      <ThemeIcon size={44} radius="xl" variant="light" color="indigo" mx="auto" mb="sm" aria-hidden>
        {icon ?? <IconMoodEmpty size={24} />}
      </ThemeIcon>
      <Text fw={600}>{title}</Text>
      {children && (
        <Text size="sm" c="dimmed" maw={460} mx="auto" mt={4} component="div">
          {children}
        </Text>
      )}
      {action && (
        <Group justify="center" mt="md">
          {action}
        </Group>
      )}
    </Paper>
  );
}

/** The page for an id that does not exist or that the person cannot read (the server answers NOT_FOUND for both). */
export function NotFoundPanel({ what, back }: { what: string; back: { label: string; to: string } }) {
  usePageTitle('Not found');
  return (
    <Box maw={WIDTHS.content} mx="auto" mt="xl">
      <EmptyState
        icon={<IconAlertCircle size={24} />}
        title={`${what} was not found`}
        action={
          <Button component={Link} to={back.to}>
            {back.label}
          </Button>
        }
      >
        It may have been moved to the trash, or you may not have access to it. Ask the person who shared the link to
        check its access.
      </EmptyState>
    </Box>
  );
}

export function notifyError(err: unknown, title?: string): void {
  notifications.show({ color: 'red', title: title ?? describeError(err).title, message: errorLine(err) });
}

export function notifyDone(message: string): void {
  notifications.show({ color: 'teal', message });
}
