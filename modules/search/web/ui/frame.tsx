import { Alert, Box, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconMoodEmpty } from '@tabler/icons-react';
import { useEffect, type ReactNode } from 'react';

/** Layout widths of 000 §9. */
export const WIDTHS = { content: 864, wide: 1084, max: 1200 } as const;

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Fieldbook` : 'Fieldbook';
  }, [title]);
}

/** A page: heading, a line about it, actions on the right, then the content. */
export function PageFrame({
  title,
  description,
  actions,
  eyebrow,
  children,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  eyebrow?: ReactNode;
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <Box maw={WIDTHS.wide} mx="auto" w="100%">
      {eyebrow}
      <Group justify="space-between" align="flex-end" mb="lg" gap="md" wrap="wrap">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Title order={1} fz={26} lh={1.2} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
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

interface ErrorItem {
  message?: string;
  extensions?: { errorCode?: string; humanReadable?: boolean };
}

const itemsOf = (err: unknown): ErrorItem[] | null =>
  err && typeof err === 'object' && 'errors' in err && Array.isArray((err as { errors: unknown }).errors)
    ? (err as { errors: ErrorItem[] }).errors
    : null;

export const errorCode = (err: unknown): string | undefined => itemsOf(err)?.[0]?.extensions?.errorCode;

/** What went wrong and what to do next, in words people can act on. */
export function describeError(err: unknown): { title: string; message: string } {
  const item = itemsOf(err)?.[0];
  const code = item?.extensions?.errorCode;
  if (item?.message && item.extensions?.humanReadable) {
    return {
      title:
        code === 'BAD_USER_INPUT'
          ? 'Please check the search'
          : code === 'FORBIDDEN'
            ? 'Not allowed'
            : 'That did not work',
      message: item.message,
    };
  }
  if (code === 'NOT_FOUND')
    return { title: 'Not found', message: 'It may have been deleted, or you may not have access to it.' };
  if (code === 'FORBIDDEN')
    return {
      title: 'Not allowed',
      message: 'You do not have permission to do that. Ask a workspace admin if you need it.',
    };
  if (err instanceof Error && err.name === 'NetworkError')
    return {
      title: 'Connection problem',
      message: 'Fieldbook can’t be reached right now. Check your connection, then try again.',
    };
  return {
    title: 'Something went wrong',
    message: 'Please try again in a moment. If it keeps happening, reload the page.',
  };
}

export function ErrorNote({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (!error) return null;
  const d = describeError(error);
  return (
    <Alert color="red" variant="light" title={d.title} icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
      <Text size="sm">{d.message}</Text>
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
    <Paper withBorder p="xl" ta="center" radius="md">
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
