import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Alert, Anchor, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';

/** The languages translation offers (modules/ai/src/translation/translate.ts), by their ISO 639-1 codes. */
const LANGUAGES = [
  'ar',
  'da',
  'de',
  'en',
  'es',
  'fi',
  'fr',
  'hi',
  'it',
  'ja',
  'ko',
  'nl',
  'no',
  'pl',
  'pt',
  'sv',
  'tr',
  'uk',
  'zh',
] as const;
const names = new Intl.DisplayNames(['en'], { type: 'language' });
const nameOf = (code: string) => names.of(code) ?? code;
const OPTIONS = LANGUAGES.map((code) => ({ value: code, label: nameOf(code) })).sort((a, b) =>
  a.label.localeCompare(b.label),
);

const TRANSLATE = `mutation TranslateNote($input: TranslateNoteInput!) {
  translateNote(input: $input) { status error translatedNoteId targetLanguage sourceLanguage }
}`;

interface Translation {
  status: 'Success' | 'Failure';
  error: 'UnsupportedLanguagePair' | 'Error' | null;
  translatedNoteId: string | null;
  targetLanguage: string;
  sourceLanguage: string | null;
}

/** A failed translation in plain words. */
function failureText(t: Translation): string {
  if (t.error === 'UnsupportedLanguagePair') {
    return t.sourceLanguage
      ? `Translating from ${nameOf(t.sourceLanguage)} into ${nameOf(t.targetLanguage)} is not supported.`
      : `Translating into ${nameOf(t.targetLanguage)} is not supported.`;
  }
  return 'The note could not be translated. Please try again in a moment.';
}

function messageOf(err: unknown): string {
  const first =
    err && typeof err === 'object' && 'errors' in err
      ? (err as { errors: Array<{ message?: string }> }).errors[0]
      : null;
  if (first?.message) return first.message;
  return err instanceof Error ? err.message : 'The note could not be translated. Please try again in a moment.';
}

/** Translates a note into a new note beside it (the original stays as it is), then links to the copy. */
export function TranslateDialog({ noteId, onClose }: { noteId: string; onClose(): void }) {
  const host = useFieldbook();
  const [target, setTarget] = useState<string | null>(null);
  const [source, setSource] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Translation | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function translate() {
    if (!target) return setError('Choose the language to translate into.');
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const { translateNote } = await host.graphql<{ translateNote: Translation }>(TRANSLATE, {
        input: { noteId, targetLanguage: target, sourceLanguage: source },
      });
      if (translateNote.status === 'Success') setResult(translateNote);
      else setError(failureText(translateNote));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title="Translate note">
      <Stack>
        <Text size="sm" c="dimmed">
          The translation is saved as a new note in the same project; this note stays as it is.
        </Text>
        <Select
          label="Translate into"
          placeholder="Choose a language"
          data={OPTIONS}
          value={target}
          onChange={setTarget}
          searchable
          required
          data-autofocus
        />
        <Select
          label="From (optional)"
          placeholder="Detect it"
          data={OPTIONS}
          value={source}
          onChange={setSource}
          searchable
          clearable
        />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {result?.translatedNoteId && (
          <Alert color="teal" role="status">
            Translated into {nameOf(result.targetLanguage)}.{' '}
            <Anchor
              component={Link}
              to={`/data/${result.translatedNoteId}`}
              onClick={onClose}
              c="inherit"
              fw={600}
              underline="always"
            >
              Open the translated note
            </Anchor>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {result ? 'Close' : 'Cancel'}
          </Button>
          <Button onClick={() => void translate()} loading={busy}>
            Translate
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
