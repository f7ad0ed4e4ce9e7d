import { cloneElement, useCallback, useState, type ReactElement, type ReactNode } from 'react';

type HeaderMenus = typeof import('./HeaderMenus.tsx');

let loading: Promise<HeaderMenus> | null = null;
/** One download for both menus; a failed one is tried again on the next click. */
function loadHeaderMenus(): Promise<HeaderMenus> {
  loading ??= import('./HeaderMenus.tsx').catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

/**
 * A header menu whose code loads on first use. Until then its button is drawn alone, as a button
 * that says it opens a menu; pointing at it fetches the menus, and the first click opens the menu
 * as soon as they are there, so that click is never lost. The button is not swapped while merely
 * pointed at: a click pressed on the old button and released on the new one would be lost.
 */
export function LazyMenu({
  trigger,
  render,
}: {
  trigger: ReactElement<{ onClick?: () => void; onPointerEnter?: () => void }>;
  render(menus: HeaderMenus, trigger: ReactElement, opened: boolean): ReactNode;
}) {
  const [menus, setMenus] = useState<HeaderMenus | null>(null);
  const prefetch = useCallback(() => void loadHeaderMenus().catch(() => undefined), []);
  const open = useCallback(() => {
    loadHeaderMenus().then(setMenus, () => undefined);
  }, []);
  if (menus) return render(menus, trigger, true);
  return cloneElement(trigger, {
    onClick: open,
    onPointerEnter: prefetch,
    'aria-haspopup': 'menu',
    'aria-expanded': false,
  } as Record<string, unknown>);
}
