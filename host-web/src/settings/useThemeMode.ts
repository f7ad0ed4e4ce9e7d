import { useMantineColorScheme } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ops, type User } from '../api/operations.ts';
import { schemeOf, type ThemeMode } from '../app/color-scheme.ts';
import { useServices, useSession } from '../session/SessionProvider.tsx';

/** The person's theme and a way to change it: shown at once, then saved to their account. */
export function useThemeMode(): { mode: ThemeMode; choose: (mode: ThemeMode) => Promise<void> } {
  const { client } = useServices();
  const session = useSession();
  const { setColorScheme } = useMantineColorScheme();
  const mode = session.user?.themeMode ?? 'BROWSER_DEFAULT';
  async function choose(next: ThemeMode) {
    setColorScheme(schemeOf(next));
    try {
      const { updateThemeMode } = await client.request<{ updateThemeMode: User }>(ops.updateThemeMode, { mode: next });
      session.setUser(updateThemeMode);
    } catch (err) {
      setColorScheme(schemeOf(mode));
      notifications.show({ color: 'red', message: `The theme was not saved: ${(err as Error).message}` });
    }
  }
  return { mode, choose };
}
