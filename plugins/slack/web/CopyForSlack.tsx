import { useState } from 'react';
import { useFieldbook, type SlotProps } from '@fieldbook/extensions-sdk/web';

const button = {
  font: 'inherit',
  fontSize: 14,
  fontWeight: 600,
  height: 36,
  padding: '0 14px',
  borderRadius: 4,
  border: '1px solid var(--mantine-color-gray-4, #ced4da)',
  background: 'var(--mantine-color-white, #fff)',
  color: 'var(--mantine-color-black, #000)',
  cursor: 'pointer',
} as const;

/**
 * A note toolbar action: copies the note's link in Slack's link syntax (`<url|title>`), ready to
 * paste into a channel, so people can point a discussion at the evidence.
 */
export function CopyForSlack({ noteId }: SlotProps['note.toolbar.action/v1']) {
  const host = useFieldbook();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    // Read when copied, not when drawn: the title may have been edited since the page opened.
    const { note } = await host.graphql<{ note: { title: string } }>('query($id: ID!) { note(id: $id) { title } }', {
      id: noteId,
    });
    const title = note.title.trim().replace(/[<>|]/g, '') || 'Untitled note';
    await navigator.clipboard.writeText(`<${window.location.origin}/data/${noteId}|${title}>`);
    setCopied(true);
    window.setTimeout(() => setCopied(false), 2000);
  };
  return (
    <button type="button" style={button} onClick={() => void copy()} aria-live="polite">
      {copied ? 'Copied for Slack' : 'Copy for Slack'}
    </button>
  );
}
