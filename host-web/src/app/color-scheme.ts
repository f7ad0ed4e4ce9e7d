import { localStorageColorSchemeManager, type MantineColorScheme } from '@mantine/core';

/**
 * Where the theme is kept in the browser: index.html reads the same key before the first paint.
 * The account's setting (User.themeMode) is the source of truth; this copy only avoids a flash.
 */
export const COLOR_SCHEME_KEY = 'fieldbook-color-scheme';
export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY });

export type ThemeMode = 'BROWSER_DEFAULT' | 'LIGHT' | 'DARK';

export const THEME_LABELS: Record<ThemeMode, string> = {
  BROWSER_DEFAULT: 'Browser default',
  LIGHT: 'Light',
  DARK: 'Dark',
};

export const schemeOf = (mode: ThemeMode): MantineColorScheme =>
  mode === 'DARK' ? 'dark' : mode === 'LIGHT' ? 'light' : 'auto';
