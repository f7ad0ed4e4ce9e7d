import { useEffect } from 'react';

/** Names the browser tab after the page, so screen readers and tab lists say where you are. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Fieldbook` : 'Fieldbook';
  }, [title]);
}
