import { Avatar } from '@mantine/core';
import type { AvailableTeam } from '../api/operations.ts';

/** A workspace's logo, or its first letters on its colour; in the workspace list and the app's header. */
export function TeamAvatar({
  team,
  size = 40,
}: {
  team: Pick<AvailableTeam, 'name' | 'logoUrl' | 'primaryColor'>;
  size?: number;
}) {
  return (
    <Avatar
      src={team.logoUrl}
      size={size}
      radius="md"
      color="indigo.7"
      variant="filled"
      aria-hidden
      style={team.primaryColor ? { background: team.primaryColor } : undefined}
    >
      {team.name.slice(0, 2).toUpperCase()}
    </Avatar>
  );
}
