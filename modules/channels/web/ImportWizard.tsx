import {
  Alert,
  Button,
  Checkbox,
  FileInput,
  Group,
  Modal,
  Progress,
  ScrollArea,
  Select,
  SimpleGrid,
  Stepper,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useEffect, useState } from 'react';
import { Q, restError, type ChannelImport, type CsvPreview } from './api.ts';
import { ConnectSourceForm } from './sources/ConnectSourceForm.tsx';
import { SurveyImport } from './sources/SurveyImport.tsx';
import { SQ, type PluginSource } from './sources/api.ts';
import { dataPoints } from './count.ts';
import { CHANNEL_LIMITS } from '../src/limits.ts';

const FIELD_TYPES = [
  'TEXT',
  'NUMBER',
  'NPS',
  'CSAT',
  'RATING',
  'ARR',
  'BOOLEAN',
  'DATETIME',
  'EMAIL',
  'PHONE',
  'URL',
  'SELECT',
  'PERSON',
] as const;
type Role = 'feedback' | 'date' | 'email' | 'externalId' | 'skip' | `field:${(typeof FIELD_TYPES)[number]}`;

const ROLE_OPTIONS: Array<{ value: Role; label: string }> = [
  { value: 'feedback', label: 'Feedback text' },
  { value: 'date', label: 'Date' },
  { value: 'email', label: 'Customer email' },
  { value: 'externalId', label: 'External id' },
  { value: 'skip', label: 'Leave out' },
  ...FIELD_TYPES.map((t) => ({ value: `field:${t}` as Role, label: `Field (${t.toLowerCase()})` })),
];

/** First guesses of what each column is, by its label. */
function guessRoles(headers: readonly string[]): Role[] {
  const roles: Role[] = headers.map(() => 'field:TEXT');
  const pick = (pattern: RegExp, role: Role) => {
    const i = headers.findIndex((h, k) => pattern.test(h) && roles[k] === 'field:TEXT');
    if (i >= 0) roles[i] = role;
  };
  pick(/comment|feedback|text|content|message|review|answer/i, 'feedback');
  pick(/date|time|created/i, 'date');
  pick(/e-?mail/i, 'email');
  if (!roles.includes('feedback') && roles.length) roles[0] = 'feedback';
  return roles;
}

const labelOf = (headers: readonly string[], roles: readonly Role[], role: Role): string | null => {
  const i = roles.indexOf(role);
  return i >= 0 ? headers[i]! : null;
};

/**
 * Pick a source: a CSV file (upload, map its columns on a preview) or an installed plugin's source
 * (its settings); then the import runs with live progress, and the result says what failed.
 */
export function ImportWizard({ channelId, onClose }: { channelId: string; onClose: () => void }) {
  const host = useFieldbook();
  const [step, setStep] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [roles, setRoles] = useState<Role[]>([]);
  const [minDate, setMinDate] = useState('');
  const [maxDate, setMaxDate] = useState('');
  const [ignoreNul, setIgnoreNul] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [importId, setImportId] = useState<string | null>(null);
  const [run, setRun] = useState<ChannelImport | null>(null);
  const sources = useGraphQL<{ channelPluginSources: PluginSource[] }>(SQ.sources);
  const [sourceKey, setSourceKey] = useState('CSV');
  const pluginSources = sources.data?.channelPluginSources ?? [];
  const picked = pluginSources.find((s) => `${s.pluginId}:${s.kind}` === sourceKey) ?? null;
  const survey = sourceKey === 'SURVEY';

  const send = (path: string, body: Blob) => {
    if (!host.fetch) throw new Error('This version of Fieldbook cannot upload files.');
    return host.fetch(path, { method: 'POST', headers: { 'content-type': 'text/csv' }, body });
  };

  async function choose(picked: File | null) {
    setFile(picked);
    setError(null);
    if (!picked) return;
    // The preview reads the file's head only: one byte past it tells the server the file goes on.
    const res = await send(`/api/channels/${channelId}/csv/preview`, picked.slice(0, CHANNEL_LIMITS.previewBytes + 1));
    if (!res.ok) return setError(await restError(res));
    const answer = (await res.json()) as CsvPreview;
    setPreview(answer);
    setRoles(guessRoles(answer.headers));
    setStep(1);
  }

  async function start() {
    if (!preview) return;
    const analyze = labelOf(preview.headers, roles, 'feedback');
    if (!analyze) return setError('Choose the column that holds the feedback text.');
    const fieldTypes: Record<string, string> = {};
    preview.headers.forEach((h, i) => {
      const role = roles[i]!;
      if (role.startsWith('field:')) fieldTypes[h] = role.slice(6);
    });
    const settings = {
      analyzeColumnLabel: analyze,
      timestampColumnLabel: labelOf(preview.headers, roles, 'date'),
      emailFieldPath: labelOf(preview.headers, roles, 'email'),
      externalIdColumnLabel: labelOf(preview.headers, roles, 'externalId'),
      unselectedHeaders: preview.headers.filter((_, i) => roles[i] === 'skip'),
      minDate: minDate || null,
      maxDate: maxDate || null,
      fieldTypes,
      ignoreNul,
    };
    const query = new URLSearchParams({ name: file?.name ?? 'CSV import', settings: JSON.stringify(settings) });
    if (!file) return;
    const res = await send(`/api/channels/${channelId}/imports?${query}`, file);
    if (!res.ok) return setError(await restError(res));
    const { importId: id } = (await res.json()) as { importId: string };
    setImportId(id);
    setError(null);
    setStep(2);
  }

  // Live progress: the run's counts as its batches commit.
  useEffect(() => {
    if (!importId) return;
    let stopped = false;
    const poll = async () => {
      try {
        const { channelImport } = await host.graphql<{ channelImport: ChannelImport }>(Q.import, { id: importId });
        if (stopped) return;
        setRun(channelImport);
        if (channelImport.status === 'COMPLETED' || channelImport.status === 'FAILED') return setStep(3);
      } catch (e) {
        if (!stopped) setError((e as Error).message);
      }
      if (!stopped) setTimeout(() => void poll(), 500);
    };
    void poll();
    return () => {
      stopped = true;
    };
  }, [host, importId]);

  const total = preview?.rowCount ?? 0;
  return (
    <Modal
      opened
      onClose={onClose}
      title={picked ? `Connect ${picked.label}` : survey ? 'Import survey responses' : 'Import a CSV file'}
      size="xl"
    >
      <Stepper active={step} size="sm" mb="md" display={survey ? 'none' : undefined}>
        <Stepper.Step label={picked ? 'Source' : 'Upload'} />
        <Stepper.Step label={picked ? 'Settings' : 'Map columns'} />
        <Stepper.Step label="Import" />
        <Stepper.Step label="Result" />
      </Stepper>
      {error && (
        <Alert color="red" mb="md" role="alert">
          {error}
        </Alert>
      )}
      {step === 0 && (
        <Select
          label="Source"
          mb="md"
          data={[
            { value: 'CSV', label: 'CSV file' },
            { value: 'SURVEY', label: 'Survey responses (CSV)' },
            ...pluginSources.map((s) => ({ value: `${s.pluginId}:${s.kind}`, label: `${s.label} (${s.pluginName})` })),
          ]}
          value={sourceKey}
          onChange={(v) => setSourceKey(v ?? 'CSV')}
          allowDeselect={false}
        />
      )}
      {step === 0 && survey && <SurveyImport channelId={channelId} onDone={onClose} />}
      {step === 0 && !picked && !survey && (
        <FileInput
          label="CSV file"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          value={file}
          onChange={(f) => void choose(f)}
        />
      )}
      {step === 0 && picked && (
        <ConnectSourceForm
          key={sourceKey}
          channelId={channelId}
          source={picked}
          onError={setError}
          onStarted={(started) => {
            setImportId(started.id);
            setStep(2);
          }}
        />
      )}
      {step === 1 && preview && (
        <>
          <Text size="sm" c="dimmed" mb="xs">
            {preview.rowCount === null
              ? `Separated by ${preview.delimiter === ';' ? 'semicolons' : 'commas'}. The first ${preview.rows.length} rows are shown; long values are cut.`
              : `${preview.rowCount.toLocaleString()} rows, separated by ${preview.delimiter === ';' ? 'semicolons' : 'commas'}. The first ${preview.rows.length} are shown.`}
          </Text>
          {preview.nulLine !== null && (
            <Alert color="yellow" mb="sm">
              Line {preview.nulLine} contains a NUL character, which a CSV file cannot hold.
              <Checkbox
                mt="xs"
                label="Ignore NUL characters"
                checked={ignoreNul}
                onChange={(e) => setIgnoreNul(e.currentTarget.checked)}
              />
            </Alert>
          )}
          <ScrollArea mb="md">
            <Table aria-label="Column mapping" withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  {preview.headers.map((h, i) => (
                    <Table.Th key={`${h}-${i}`} miw={170}>
                      <Text fw={600} size="sm">
                        {h}
                      </Text>
                      <Select
                        aria-label={`Column ${h}`}
                        data={ROLE_OPTIONS}
                        value={roles[i]}
                        allowDeselect={false}
                        onChange={(v) => setRoles((r) => r.map((x, k) => (k === i ? ((v ?? 'skip') as Role) : x)))}
                        size="xs"
                      />
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.rows.map((row) => (
                  <Table.Tr key={row.line}>
                    {preview.headers.map((h, i) => (
                      <Table.Td key={`${h}-${i}`}>
                        <Text size="sm" lineClamp={2}>
                          {row.cells[i] ?? ''}
                        </Text>
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          <SimpleGrid cols={2} mb="md">
            <TextInput
              label="Only from"
              type="date"
              value={minDate}
              onChange={(e) => setMinDate(e.currentTarget.value)}
            />
            <TextInput
              label="Only until"
              type="date"
              value={maxDate}
              onChange={(e) => setMaxDate(e.currentTarget.value)}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep(0)}>
              Back
            </Button>
            <Button onClick={() => void start()}>
              {preview.rowCount === null ? 'Import the file' : `Import ${preview.rowCount.toLocaleString()} rows`}
            </Button>
          </Group>
        </>
      )}
      {step >= 2 && (
        <>
          <Progress
            // A file larger than its preview has no row count: the bar then only shows that it runs.
            value={run && total ? Math.min(100, (100 * run.recordsRead) / total) : step === 3 || run ? 100 : 5}
            striped={step === 2 && !total}
            animated={step === 2}
            aria-label="Import progress"
            mb="sm"
          />
          <Text aria-live="polite">
            {run
              ? picked
                ? `${run.recordsRead} read: ${run.recordsCreated} created, ${run.recordsUpdated} updated, ${run.recordsFailed} failed`
                : `${run.recordsRead}${total ? ` of ${total}` : ''} read: ${run.recordsCreated} created, ${run.recordsUpdated} updated, ${run.recordsSkipped} outside the dates, ${run.recordsFailed} failed`
              : 'Waiting for the import to start…'}
          </Text>
        </>
      )}
      {step === 3 && run && (
        <>
          {run.status === 'FAILED' ? (
            <Alert color="red" mt="md" title="The import failed">
              {run.error}
            </Alert>
          ) : (
            <Alert color="teal" mt="md" title="Import complete">
              {dataPoints(run.recordsCreated)} created and {run.recordsUpdated} updated.
            </Alert>
          )}
          {!!run.failures.length && (
            <Table aria-label="Failed rows" mt="md">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{picked ? 'Record' : 'Line'}</Table.Th>
                  <Table.Th>Reason</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {run.failures.map((f, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{f.line ?? f.externalId}</Table.Td>
                    <Table.Td>{f.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group justify="flex-end" mt="md">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </>
      )}
    </Modal>
  );
}
