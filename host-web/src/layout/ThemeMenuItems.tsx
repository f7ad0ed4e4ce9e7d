import { Menu } from '@mantine/core';
import { IconCheck, IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { THEME_LABELS, type ThemeMode } from '../app/color-scheme.ts';
import { useThemeMode } from '../settings/useThemeMode.ts';

const ICONS = { BROWSER_DEFAULT: IconDeviceDesktop, LIGHT: IconSun, DARK: IconMoon } as const;

/** The user menu's theme choice: the same setting as Account settings → Appearance. */
export function ThemeMenuItems() {
  const { mode, choose } = useThemeMode();
  return (
    <>
      <Menu.Label>Theme</Menu.Label>
      {(Object.keys(THEME_LABELS) as ThemeMode[]).map((m) => {
        const Icon = ICONS[m];
        return (
          <Menu.Item
            key={m}
            leftSection={<Icon size={16} aria-hidden />}
            rightSection={m === mode ? <IconCheck size={14} aria-label="current" /> : null}
            aria-current={m === mode ? 'true' : undefined}
            onClick={() => void choose(m)}
          >
            {`${THEME_LABELS[m]} theme`}
          </Menu.Item>
        );
      })}
    </>
  );
}
