import { useMantineColorScheme } from '@mantine/core';
import { useEffect } from 'react';
import { useSession } from '../session/SessionProvider.tsx';
import { schemeOf } from './color-scheme.ts';

/** Follows the signed-in person's theme, so it is the same on every device they sign in on. */
export function ThemeFromUser() {
  const { user } = useSession();
  const { setColorScheme } = useMantineColorScheme();
  const mode = user?.themeMode;
  useEffect(() => {
    if (mode) setColorScheme(schemeOf(mode));
  }, [mode, setColorScheme]);
  return null;
}
