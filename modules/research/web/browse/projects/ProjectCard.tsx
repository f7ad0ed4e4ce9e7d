import { ActionIcon, Anchor, Card, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconGripVertical, IconLock } from '@tabler/icons-react';
import type { KeyboardEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import type { ProjectSummary } from '../api.ts';
import { timeAgo } from '../ui/hooks.ts';
import { ProjectIcon, StatusBadge } from '../ui/look.tsx';

/** The drag handle: also the keyboard way to reorder (arrow keys). */
export function ReorderHandle({ title, onKeyDown }: { title: string; onKeyDown(e: KeyboardEvent): void }) {
  return (
    <Tooltip label="Drag, or focus and use the arrow keys, to reorder" openDelay={600}>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`Reorder ${title}`}
        aria-roledescription="reorder handle"
        onKeyDown={onKeyDown}
        style={{ cursor: 'grab' }}
      >
        <IconGripVertical size={16} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}

export function ProjectCard({
  project,
  handle,
  dimmed,
}: {
  project: ProjectSummary;
  handle?: ReactNode;
  dimmed?: boolean;
}) {
  return (
    <Card
      withBorder
      padding="md"
      style={{ borderTop: `4px solid ${project.color ?? '#4c6ef5'}`, opacity: dimmed ? 0.5 : 1, height: '100%' }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <ProjectIcon icon={project.icon} color={project.color} />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Anchor
              component={Link}
              to={`/projects/${project.id}`}
              fw={600}
              c="dark"
              lineClamp={2}
              style={{ wordBreak: 'break-word' }}
            >
              {project.title}
            </Anchor>
            {project.folder && (
              <Text size="xs" c="dimmed" truncate>
                {project.folder.path}
              </Text>
            )}
          </Stack>
        </Group>
        {handle}
      </Group>
      <Group justify="space-between" mt="md" gap="xs">
        <Group gap={6}>
          <StatusBadge status={project.status} />
          {project.myAccess.restricted && (
            <Tooltip label="Only people granted access can open this project">
              <IconLock size={14} aria-label="Restricted access" />
            </Tooltip>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          Updated {timeAgo(project.updatedAt)}
        </Text>
      </Group>
    </Card>
  );
}
