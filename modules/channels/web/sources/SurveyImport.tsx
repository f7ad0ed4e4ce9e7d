import { Alert, Badge, Button, FileInput, Group, ScrollArea, Select, Table, Text } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useState } from 'react';
import { CHANNEL_LIMITS } from '../../src/limits.ts';
import { detectDelimiter, readCsv } from '../../src/sources/csv/parse.ts';
import { dataPoints } from '../count.ts';

type Role = 'id' | 'email' | 'date' | 'FREE_TEXT' | 'SINGLE_SELECT' | 'MULTI_SELECT' | 'skip';
const ROLES: Array<{ value: Role; label: string }> = [
  { value: 'FREE_TEXT', label: 'Question: free text' },
  { value: 'SINGLE_SELECT', label: 'Question: one choice' },
  { value: 'MULTI_SELECT', label: 'Question: several choices' },
  { value: 'id', label: 'Response id' },
  { value: 'email', label: 'Respondent email' },
  { value: 'date', label: 'Submitted at' },
  { value: 'skip', label: 'Leave out' },
];
const MAX_RESPONSES = 1000;

interface SurveyResult {
  processedInto: 'CONTENT' | 'SURVEY';
  numCreated: number;
  numUpdated: number;
  numFailed: number;
  failures: Array<{
    responseId: string | null;
    questionId: string | null;
    humanMessageText: string;
    errorCode: string;
  }>;
}

const IMPORT = `mutation ImportSurvey($input: ImportSurveyInput!) { importSurvey(input: $input) { processedInto numCreated numUpdated numFailed failures { responseId questionId humanMessageText errorCode } } }`;

function guess(header: string, values: string[]): Role {
  if (/^(response\s*)?id$/i.test(header)) return 'id';
  if (/e-?mail/i.test(header)) return 'email';
  if (/date|time|submitted/i.test(header)) return 'date';
  const distinct = new Set(values.filter(Boolean));
  if (values.some((v) => v.includes(';'))) return 'MULTI_SELECT';
  return distinct.size > 0 && distinct.size <= 6 && values.length > distinct.size * 2 ? 'SINGLE_SELECT' : 'FREE_TEXT';
}

/** Choices of a select column: each distinct value (split on semicolons for several choices). */
const choicesOf = (cell: string, multi: boolean) =>
  (multi ? cell.split(';') : [cell]).map((s) => s.trim()).filter(Boolean);

/**
 * A survey export (CSV, one row per response, one column per question): say what each column is,
 * then the responses are imported as a dataset (001 §3.4: SURVEY or CONTENT), and each response
 * that failed is listed with why.
 */
export function SurveyImport({ channelId, onDone }: { channelId: string; onDone: () => void }) {
  const host = useFieldbook();
  const [file, setFile] = useState<File | null>(null);
  const [headers, setHeaders] = useState<string[]>([]);
  const [rows, setRows] = useState<string[][]>([]);
  const [roles, setRoles] = useState<Role[]>([]);
  const [processInto, setProcessInto] = useState<'SURVEY' | 'CONTENT'>('SURVEY');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SurveyResult | null>(null);

  async function choose(picked: File | null) {
    setFile(picked);
    setError(null);
    if (!picked) return;
    const text = (await picked.text()).replaceAll('\0', '');
    const all = [...readCsv(text, detectDelimiter(text))];
    const [head, ...body] = all;
    if (!head || !body.length) return setError('The file needs a header line and at least one response.');
    if (body.length > MAX_RESPONSES)
      return setError(
        `One import can hold at most ${MAX_RESPONSES} responses; this file has ${body.length}. Split it.`,
      );
    const cols = head.cells.map((c) => c.trim());
    setHeaders(cols);
    setRows(body.map((r) => r.cells));
    setRoles(
      cols.map((h, i) =>
        guess(
          h,
          body.map((r) => (r.cells[i] ?? '').trim()),
        ),
      ),
    );
  }

  async function start() {
    const questions = headers.flatMap((h, i) => {
      const role = roles[i]!;
      if (role !== 'FREE_TEXT' && role !== 'SINGLE_SELECT' && role !== 'MULTI_SELECT') return [];
      const options =
        role === 'FREE_TEXT'
          ? null
          : [...new Set(rows.flatMap((r) => choicesOf(r[i] ?? '', role === 'MULTI_SELECT')))].map((text, k) => ({
              id: `c${i}o${k}`,
              optionText: text,
            }));
      return [{ id: `c${i}`, questionText: h || `Question ${i + 1}`, questionType: role, questionOptions: options }];
    });
    if (!questions.length) return setError('Choose at least one column that holds a question.');
    // A choice column whose answers cannot be options is named here, before anything is sent:
    // the server would only say which question number was refused.
    for (const q of questions) {
      const options = q.questionOptions ?? [];
      if (options.length > CHANNEL_LIMITS.selectOptions) {
        return setError(
          `Too many options. The column "${q.questionText}" has ${options.length} different answers; a choice question can have at most ${CHANNEL_LIMITS.selectOptions}. Import it as free text.`,
        );
      }
      const long = options.find((o) => o.optionText.length > CHANNEL_LIMITS.optionLabel);
      if (long)
        return setError(
          `The column "${q.questionText}" has an answer longer than ${CHANNEL_LIMITS.optionLabel} characters, too long for a choice ("${long.optionText.slice(0, 60)}…"). Import it as free text.`,
        );
    }
    const col = (role: Role) => roles.indexOf(role);
    const responses = rows.map((r, n) => ({
      id: col('id') >= 0 && r[col('id')]?.trim() ? r[col('id')]!.trim() : `row-${n + 2}`,
      respondentEmail: col('email') >= 0 ? r[col('email')]?.trim() || null : null,
      submittedAt: col('date') >= 0 ? r[col('date')]?.trim() || null : null,
      answers: questions.map((q) => {
        const i = Number(q.id.slice(1));
        const cell = (r[i] ?? '').trim();
        if (q.questionType === 'FREE_TEXT') return { questionId: q.id, text: cell };
        const wanted = choicesOf(cell, q.questionType === 'MULTI_SELECT');
        return {
          questionId: q.id,
          optionIds: q.questionOptions!.filter((o) => wanted.includes(o.optionText)).map((o) => o.id),
        };
      }),
    }));
    setBusy(true);
    setError(null);
    try {
      const { importSurvey } = await host.graphql<{ importSurvey: SurveyResult }>(IMPORT, {
        input: { channelId, name: file?.name ?? 'Survey', processInto, questions, responses },
      });
      setResult(importSurvey);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      {error && (
        <Alert color="red" mb="md" role="alert">
          {error}
        </Alert>
      )}
      {!result && (
        <FileInput
          label="Survey export (CSV)"
          description="One row per response, one column per question"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          value={file}
          onChange={(f) => void choose(f)}
          mb="md"
        />
      )}
      {!result && headers.length > 0 && (
        <>
          <Text size="sm" c="dimmed" mb="xs">
            {rows.length} responses. Say what each column holds.
          </Text>
          <ScrollArea mb="md">
            <Table aria-label="Survey columns" withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  {headers.map((h, i) => (
                    <Table.Th key={`${h}-${i}`} miw={190}>
                      <Text fw={600} size="sm" lineClamp={2}>
                        {h}
                      </Text>
                      <Select
                        aria-label={`Column ${h}`}
                        data={ROLES}
                        value={roles[i]}
                        allowDeselect={false}
                        size="xs"
                        onChange={(v) => setRoles((rs) => rs.map((x, k) => (k === i ? ((v ?? 'skip') as Role) : x)))}
                      />
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.slice(0, 5).map((r, n) => (
                  <Table.Tr key={n}>
                    {headers.map((h, i) => (
                      <Table.Td key={`${h}-${i}`}>
                        <Text size="sm" lineClamp={2}>
                          {r[i] ?? ''}
                        </Text>
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          <Group justify="space-between" align="flex-end">
            <Select
              label="Import as"
              w={340}
              data={[
                { value: 'SURVEY', label: 'Survey: one data point per response' },
                { value: 'CONTENT', label: 'Content: one data point per free-text answer' },
              ]}
              value={processInto}
              onChange={(v) => setProcessInto((v ?? 'SURVEY') as 'SURVEY' | 'CONTENT')}
              allowDeselect={false}
            />
            <Button loading={busy} onClick={() => void start()}>
              Import {rows.length} responses
            </Button>
          </Group>
        </>
      )}
      {result && (
        <>
          <Alert color={result.numFailed ? 'yellow' : 'teal'} title="Survey imported">
            {dataPoints(result.numCreated)} created and {result.numUpdated} updated, as{' '}
            {result.processedInto === 'SURVEY' ? 'a survey' : 'content'}; {result.numFailed} failed.
          </Alert>
          {result.failures.length > 0 && (
            <Table aria-label="Failed responses" mt="md">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Response</Table.Th>
                  <Table.Th>Why</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.failures.map((f, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{f.responseId}</Table.Td>
                    <Table.Td>
                      {f.humanMessageText}{' '}
                      <Badge size="xs" variant="light" color="gray">
                        {f.errorCode}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group justify="flex-end" mt="md">
            <Button onClick={onDone}>Done</Button>
          </Group>
        </>
      )}
    </>
  );
}
