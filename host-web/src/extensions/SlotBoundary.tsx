import { Alert, Text } from '@mantine/core';
import { IconPuzzle } from '@tabler/icons-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';

/** `google-drive` → `Google Drive`, for extensions whose plugin name is not at hand. */
export const extensionLabel = (id: string): string =>
  id
    .split(/[-_]/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');

/** What a slot shows instead of an extension that failed to load or threw while drawing. */
export function ExtensionErrorBox({ label, detail }: { label: string; detail: string }) {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconPuzzle size={18} aria-hidden />}
      title={`The ${label} extension could not be shown`}
      role="alert"
    >
      <Text size="sm">{detail}</Text>
      <Text size="sm" mt={4}>
        The rest of the page works. If this keeps happening, tell a workspace admin.
      </Text>
    </Alert>
  );
}

interface BoundaryState {
  error: Error | null;
}

/** Keeps an extension's failure inside its slot. */
export class SlotBoundary extends Component<{ label: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`The ${this.props.label} extension failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error) return <ExtensionErrorBox label={this.props.label} detail={this.state.error.message} />;
    return this.props.children;
  }
}
