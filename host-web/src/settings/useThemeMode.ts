import { useState } from 'react';
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
  const saved = session.user?.themeMode ?? 'BROWSER_DEFAULT';
  // The choice shows at once (the radio, the colours); the account catches up when the server answers.
  const [pending, setPending] = useState<ThemeMode | null>(null);
  const mode = pending ?? saved;
  async function choose(next: ThemeMode) {
    setPending(next);
    setColorScheme(schemeOf(next));
    try {
      const { updateThemeMode } = await client.request<{ updateThemeMode: User }>(ops.updateThemeMode, { mode: next });
      session.setUser(updateThemeMode);
    } catch (err) {
      setColorScheme(schemeOf(saved));
      notifications.show({ color: 'red', message: `The theme was not saved: ${(err as Error).message}` });
    } finally {
      setPending(null);
    }
  }
  return { mode, choose };
}
