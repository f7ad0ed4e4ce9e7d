import { Badge, ThemeIcon } from '@mantine/core';
import {
  IconBook,
  IconBulb,
  IconChartBar,
  IconFlask,
  IconFolder,
  IconHeart,
  IconMessages,
  IconRocket,
  IconSearch,
  IconStar,
  IconTarget,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import type { ProjectStatus } from '../api.ts';

/** Project colours offered in the pickers; any hex the server accepts also works. */
export const PROJECT_COLORS = [
  '#4c6ef5',
  '#7950f2',
  '#be4bdb',
  '#e64980',
  '#fa5252',
  '#fd7e14',
  '#fab005',
  '#40c057',
  '#12b886',
  '#15aabf',
  '#228be6',
  '#868e96',
] as const;

export const PROJECT_ICONS: Record<string, { label: string; Icon: ComponentType<{ size?: number }> }> = {
  folder: { label: 'Folder', Icon: IconFolder },
  messages: { label: 'Interviews', Icon: IconMessages },
  flask: { label: 'Experiment', Icon: IconFlask },
  target: { label: 'Goal', Icon: IconTarget },
  users: { label: 'Customers', Icon: IconUsers },
  bulb: { label: 'Idea', Icon: IconBulb },
  chart: { label: 'Metrics', Icon: IconChartBar },
  rocket: { label: 'Launch', Icon: IconRocket },
  search: { label: 'Discovery', Icon: IconSearch },
  book: { label: 'Study', Icon: IconBook },
  heart: { label: 'Satisfaction', Icon: IconHeart },
  star: { label: 'Highlight', Icon: IconStar },
};

export function ProjectIcon({ icon, color, size = 36 }: { icon: string | null; color: string | null; size?: number }) {
  const { Icon } = PROJECT_ICONS[icon ?? ''] ?? PROJECT_ICONS.folder!;
  return (
    <ThemeIcon size={size} radius="md" color={color ?? '#4c6ef5'} variant="filled" aria-hidden>
      <Icon size={Math.round(size * 0.55)} />
    </ThemeIcon>
  );
}

export const STATUS_LABEL: Record<ProjectStatus, string> = {
  ACTIVE: 'Active',
  COMPLETED: 'Completed',
  ARCHIVED: 'Archived',
};
const STATUS_COLOR: Record<ProjectStatus, string> = { ACTIVE: 'teal', COMPLETED: 'indigo', ARCHIVED: 'gray' };

export function StatusBadge({ status }: { status: ProjectStatus }) {
  return (
    <Badge variant="light" color={STATUS_COLOR[status]} radius="sm">
      {STATUS_LABEL[status]}
    </Badge>
  );
}
