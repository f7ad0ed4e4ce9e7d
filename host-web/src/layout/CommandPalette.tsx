import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { isTypingTarget, type PaletteItem } from './palette-items.ts';

const PaletteDialogs = lazy(() => import('./PaletteDialogs.tsx').then((m) => ({ default: m.PaletteDialogs })));

/** Focuses the search page's text box once that page has drawn it. */
function focusSearchBox(deadline = Date.now() + 3000) {
  const box = document.querySelector<HTMLInputElement>('input[aria-label="Search text"]');
  if (box) box.focus();
  else if (Date.now() < deadline) requestAnimationFrame(() => focusSearchBox(deadline));
}

/**
 * Ctrl/Cmd+K: one box that finds pages, actions and objects (notes, insights, projects, tags,
 * people) and opens them from the keyboard; `/` goes to search; `?` lists the shortcuts. The
 * keys are listened to from the start; the dialogs load when first opened.
 */
export function CommandPalette({ actions }: { actions: readonly PaletteItem[] }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [help, setHelp] = useState(false);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (open || help) setWanted(true);
  }, [open, help]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setHelp(false);
        setOpen((o) => !o);
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      if (e.key === '/') {
        e.preventDefault();
        navigate('/search');
        focusSearchBox();
      } else if (e.key === '?') {
        e.preventDefault();
        setOpen(false);
        setHelp(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);

  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <PaletteDialogs actions={actions} open={open} setOpen={setOpen} help={help} setHelp={setHelp} />
    </Suspense>
  );
}
