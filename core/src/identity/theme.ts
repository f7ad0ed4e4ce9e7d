import { z } from 'zod';

/**
 * A person's theme (001 §2 theme options browser-default, light and dark), kept in their user
 * preferences so it follows them to every workspace and device. Until they pick one, the browser
 * decides.
 */
export const THEME_MODES = ['BROWSER_DEFAULT', 'LIGHT', 'DARK'] as const;
export type ThemeMode = (typeof THEME_MODES)[number];

export const themeModeSchema = z.enum(THEME_MODES, { error: `mode is one of ${THEME_MODES.join(', ')}.` });

export function themeModeOf(preferences: unknown): ThemeMode {
  const value =
    preferences && typeof preferences === 'object' ? (preferences as { themeMode?: unknown }).themeMode : undefined;
  return THEME_MODES.includes(value as ThemeMode) ? (value as ThemeMode) : 'BROWSER_DEFAULT';
}
