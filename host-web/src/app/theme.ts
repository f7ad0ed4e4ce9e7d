import { createTheme, darken, type CSSVariablesResolver } from '@mantine/core';

/** Layout widths of 000 §9: reading content, wide content, and the most anything spans. */
export const LAYOUT = { content: 864, wide: 1084, max: 1200, sidebar: 248, header: 56 } as const;

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 keeps white text on filled buttons above the 4.5:1 contrast of WCAG AA, in both themes.
  primaryShade: { light: 7, dark: 7 },
  autoContrast: true,
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { radius: 'md' } },
    Paper: { defaultProps: { radius: 'lg' } },
    // Icon-only close buttons need a name for screen readers.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } } },
  },
});

/**
 * Mantine's default dimmed grey and its "light" variant text colours (badges, light buttons, the
 * active navigation link, alerts) fall below the 4.5:1 contrast of WCAG AA on their backgrounds;
 * darker shades of the same hues pass.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c6370',
    '--mantine-color-placeholder': '#6b7280',
    ...Object.fromEntries(
      Object.entries(t.colors)
        .filter(([name]) => name !== 'dark')
        .map(([name, shades]) => [
          `--mantine-color-${name}-light-color`,
          darken(shades[9], name === 'yellow' || name === 'orange' || name === 'lime' ? 0.35 : 0.12),
        ]),
    ),
  },
  // Dark surfaces (dark.7, dark.6) need lighter dimmed text than Mantine's for 4.5:1.
  dark: {
    '--mantine-color-dimmed': '#a6a7ab',
    '--mantine-color-placeholder': '#9a9ba0',
  },
});
