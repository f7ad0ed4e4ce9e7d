import { useId, useState, type FormEvent } from 'react';
import { useFieldbook, type SlotProps } from '@fieldbook/extensions-sdk/web';

const IMPORT =
  'mutation($projectId: ID!, $url: String!) { googleDriveImport(projectId: $projectId, url: $url) { queued fileId } }';

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'queued' } | { kind: 'error'; message: string };

/**
 * "Import from Google Drive" in a project's settings: a link to a Doc, Sheet, Slides deck or text
 * file becomes a note in this project, read with the person's own Google Drive connection.
 */
export function DriveImportPanel({ projectId }: SlotProps['project.settings.panel/v1']) {
  const host = useFieldbook();
  const [url, setUrl] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const ids = { title: useId(), url: useId(), message: useId() };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setStatus({ kind: 'sending' });
    try {
      await host.graphql(IMPORT, { projectId, url: url.trim() });
      setStatus({ kind: 'queued' });
      setUrl('');
    } catch (err) {
      setStatus({ kind: 'error', message: err instanceof Error ? err.message : 'The import could not be started.' });
    }
  }

  return (
    <section
      aria-labelledby={ids.title}
      style={{ border: '1px solid var(--mantine-color-gray-3, #dee2e6)', borderRadius: 8, padding: 12 }}
    >
      <h3 id={ids.title} style={{ margin: '0 0 6px', fontSize: 15 }}>
        Import from Google Drive
      </h3>
      <form
        onSubmit={(event) => void submit(event)}
        style={{ display: 'flex', gap: 8, alignItems: 'flex-end', flexWrap: 'wrap' }}
      >
        <label
          htmlFor={ids.url}
          style={{ display: 'flex', flexDirection: 'column', gap: 4, fontSize: 14, flex: '1 1 280px' }}
        >
          Google Drive link
          <input
            id={ids.url}
            type="url"
            required
            maxLength={2000}
            value={url}
            placeholder="https://docs.google.com/document/d/…"
            aria-invalid={status.kind === 'error'}
            aria-describedby={status.kind === 'idle' || status.kind === 'sending' ? undefined : ids.message}
            onChange={(event) => setUrl(event.target.value)}
            style={{ padding: '6px 8px', fontSize: 14 }}
          />
        </label>
        <button
          type="submit"
          disabled={status.kind === 'sending' || url.trim() === ''}
          style={{ padding: '6px 12px', fontSize: 14 }}
        >
          Import
        </button>
      </form>
      {status.kind === 'queued' && (
        <p id={ids.message} role="status" style={{ margin: '8px 0 0', fontSize: 14 }}>
          Importing … the note appears in this project shortly.
        </p>
      )}
      {status.kind === 'error' && (
        <p
          id={ids.message}
          role="alert"
          style={{ margin: '8px 0 0', fontSize: 14, color: 'var(--mantine-color-red-8, #c92a2a)' }}
        >
          {status.message}
        </p>
      )}
    </section>
  );
}
