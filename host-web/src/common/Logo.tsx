import { Group, Text } from '@mantine/core';

/** The Fieldbook mark and word. */
export function Logo({ size = 28, withText = true }: { size?: number; withText?: boolean }) {
  return (
    <Group gap={10} wrap="nowrap">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="#3b5bdb" />
        <path d="M10 8h12v3.2h-8.4v3.6h7.2V18h-7.2v6H10z" fill="#fff" />
      </svg>
      {withText && (
        <Text fw={700} fz={size * 0.68} c="var(--fb-logo-text)" lh={1} style={{ letterSpacing: '-0.01em' }}>
          Fieldbook
        </Text>
      )}
    </Group>
  );
}
