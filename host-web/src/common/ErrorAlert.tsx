import { Alert, Button, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { describeError } from '../api/errors.ts';

/** Shows an error as people should read it: what happened, and what to do next. */
export function ErrorAlert({ error, title, onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
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
