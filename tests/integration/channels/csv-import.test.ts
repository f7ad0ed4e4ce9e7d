import { describe, expect, it } from 'vitest';
import { detectDelimiter, readCsv } from '../../../modules/channels/src/sources/csv/parse.ts';
import { ok } from '../research/content-support.ts';
import { createChannel, post, useChannelFixture, waitForImport } from './support.ts';

const a = useChannelFixture('Survey answers');

const as = (token: string) => ({ token, workspace: a.ws.id, type: 'text/csv' });
const preview = (csv: string, token = a.contributor.accessToken) =>
  post(a.server, `/api/channels/${a.channelId}/csv/preview`, csv, as(token));
const start = (csv: string, settings: Record<string, unknown>, token = a.contributor.accessToken) =>
  post(
    a.server,
    `/api/channels/${a.channelId}/imports?name=Survey&settings=${encodeURIComponent(JSON.stringify(settings))}`,
    csv,
    as(token),
  );

async function importCsv(csv: string, settings: Record<string, unknown>) {
  const res = await start(csv, settings);
  expect(res.status, JSON.stringify(res.json)).toBe(202);
  return waitForImport(a.contributor.gql, res.json.importId as string);
}

async function contents(datasetId?: string): Promise<string[]> {
  const q = a.server.fieldbook.db.owner('channel_datapoints').where({ channel_id: a.channelId }).orderBy('created_at');
  if (datasetId) q.where({ dataset_id: datasetId });
  return ((await q) as Array<{ content: string }>).map((r) => r.content);
}

describe('reading CSV', () => {
  it('detects a comma or a semicolon from the header line', () => {
    expect(detectDelimiter('a;b;c\n1,5;2;3')).toBe(';');
    expect(detectDelimiter('"a;b",c\n1;2;3')).toBe(',');
  });

  it('keeps quoted values across lines and reports a stray quote on its own line', () => {
    const rows = [...readCsv('h1,h2\n"multi\nline",x\nbad"quote,y\nok,z\n', ',')];
    expect(rows.map((r) => r.line)).toEqual([1, 2, 4, 5]);
    expect(rows[1]!.cells).toEqual(['multi\nline', 'x']);
    expect(rows[2]!.error).toBe('a quote inside a value that is not quoted');
    expect(rows[3]!.cells).toEqual(['ok', 'z']);
  });
});

describe('CSV imports', () => {
  const semicolons = [
    'Comment;Date;Email;NPS;Internal',
    'Slow exports;2026-01-10;ana@example.com;3;a',
    '"Great; fast";2026-02-10;bo@example.com;9;b',
    'Too old;2025-06-01;;5;c',
  ].join('\n');

  it('previews the columns and first rows without writing anything', async () => {
    const res = await preview(semicolons);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      delimiter: ';',
      headers: ['Comment', 'Date', 'Email', 'NPS', 'Internal'],
      rowCount: 3,
      nulLine: null,
    });
    expect((res.json.rows as Array<{ cells: string[] }>)[1]!.cells[0]).toBe('Great; fast');
    expect(await a.server.fieldbook.db.owner('channel_datasets').where({ channel_id: a.channelId })).toHaveLength(0);
  });

  it('imports rows in the date range, maps the columns, and skips those outside it', async () => {
    const run = await importCsv(semicolons, {
      analyzeColumnLabel: 'Comment',
      timestampColumnLabel: 'Date',
      emailFieldPath: 'Email',
      unselectedHeaders: ['Internal'],
      minDate: '2026-01-01',
      maxDate: '2026-02-10',
      fieldTypes: { NPS: 'NPS' },
    });
    expect(run).toMatchObject({
      status: 'COMPLETED',
      recordsRead: 3,
      recordsCreated: 2,
      recordsSkipped: 1,
      recordsFailed: 0,
    });
    expect(await contents()).toEqual(['Slow exports', 'Great; fast']);
    const fields = (await a.server.fieldbook.db.owner('channel_fields').where({ channel_id: a.channelId })) as Array<{
      label: string;
      type: string;
    }>;
    expect(fields.map((f) => [f.label, f.type])).toEqual([['NPS', 'NPS']]);
    const people = await a.server.fieldbook.db
      .owner('people')
      .where({ workspace_id: a.ws.id })
      .whereIn('email', ['ana@example.com', 'bo@example.com']);
    expect(people).toHaveLength(2);
  });

  it('fails a malformed row alone with its line and reason; the rest go in', async () => {
    const csv = [
      'Comment,Date,Score',
      'First,2026-03-01,5',
      'Broken "quote,2026-03-02,5',
      'Too many,2026-03-03,5,extra',
      'Bad date,yesterday,5',
      'Bad score,2026-03-04,eleven',
      'Last,2026-03-05,4',
    ].join('\r\n');
    const run = await importCsv(csv, {
      analyzeColumnLabel: 'Comment',
      timestampColumnLabel: 'Date',
      fieldTypes: { Score: 'RATING' },
    });
    expect(run).toMatchObject({ status: 'COMPLETED', recordsRead: 6, recordsCreated: 2, recordsFailed: 4 });
    expect(run.failures.map((f) => [f.line, f.reason])).toEqual([
      [3, 'The row cannot be read: a quote inside a value that is not quoted.'],
      [4, 'The row has 4 values where the header has 3 columns.'],
      [5, '"yesterday" in the column "Date" is not an ISO 8601 date.'],
      [6, 'Score must be a whole number from 1 to 5.'],
    ]);
  });

  it('refuses a file with a NUL character, naming its line, unless told to ignore it', async () => {
    const csv = 'Comment,Date\nFine,2026-04-01\nNul\0here,2026-04-02\n';
    const refused = await start(csv, { analyzeColumnLabel: 'Comment' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain('Line 3 of the file contains a NUL character');
    expect((await preview(csv)).json.nulLine).toBe(3);
    const run = await importCsv(csv, { analyzeColumnLabel: 'Comment', timestampColumnLabel: 'Date', ignoreNul: true });
    expect(run).toMatchObject({ status: 'COMPLETED', recordsCreated: 2 });
    expect(await contents()).toContain('Nulhere');
  });

  it('previews a large file from its first rows only, its values cut to a bounded length', async () => {
    const long = 'x'.repeat(100_000);
    const rows = Array.from({ length: 200_000 }, (_, i) => `Answer ${i} about exports,2026-04-0${1 + (i % 9)}`);
    const csv = ['Comment,Date', `"${long}",2026-04-01`, ...rows].join('\n');
    expect(csv.length).toBeGreaterThan(5_000_000);
    const res = await preview(csv);
    expect(res.status, JSON.stringify(res.json).slice(0, 500)).toBe(200);
    expect(res.json).toMatchObject({ delimiter: ',', headers: ['Comment', 'Date'], complete: false, rowCount: null });
    const shown = res.json.rows as Array<{ line: number; cells: string[] }>;
    expect(shown.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(shown[0]!.cells[0]).toHaveLength(1000);
    expect(shown[0]!.cells[0]!.endsWith('…')).toBe(true);
    expect(shown[1]!.cells).toEqual(['Answer 0 about exports', '2026-04-01']);
    expect(JSON.stringify(res.json).length).toBeLessThan(20_000);
    // A small file is read whole: its rows are counted.
    expect((await preview('Comment\nOne\nTwo\n')).json).toMatchObject({ complete: true, rowCount: 2 });
  });

  it('refuses a file with more columns than a CSV file may have, or a column name that is too long, in its preview and its import', async () => {
    const wide = `${Array.from({ length: 600 }, (_, i) => `c${i}`).join(',')}\n${'1,'.repeat(599)}1\n`;
    for (const res of [await preview(wide), await start(wide, { analyzeColumnLabel: 'c0' })]) {
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.json)).toContain('at most 500 columns; this one has 600');
    }
    const named = `Comment,${'n'.repeat(300)}\nx,y\n`;
    for (const res of [await preview(named), await start(named, { analyzeColumnLabel: 'Comment' })]) {
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.json)).toContain('A column name can be at most 250 characters long');
    }
    // A row with far more values than the header is shown with no more than the columns a file may have.
    const ragged = `Comment\n${'v,'.repeat(2000)}v\n`;
    const cells = ((await preview(ragged)).json.rows as Array<{ cells: string[] }>)[0]!.cells;
    expect(cells.length).toBeLessThanOrEqual(500);
  });

  it('refuses settings naming a column the file lacks, and a viewer', async () => {
    const missing = await start('A,B\n1,2\n', { analyzeColumnLabel: 'Comment' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.json)).toContain('The file has no column \\"Comment\\" (analyzeColumnLabel)');
    const viewer = await start('Comment\nx\n', { analyzeColumnLabel: 'Comment' }, a.viewer.accessToken);
    expect(viewer.status).toBe(403);
    expect((await preview('Comment\nx\n', a.viewer.accessToken)).status).toBe(403);
  });

  it('keeps every new option of a select column when batches written side by side each add some', async () => {
    const settings = { analyzeColumnLabel: 'Answer', fieldTypes: { Plan: 'SELECT' } };
    expect(await importCsv('Answer,Plan\nFirst,Plan 0', settings)).toMatchObject({
      status: 'COMPLETED',
      recordsCreated: 1,
    });
    // Then 1,000 rows in batches of 200, 400 and 400 written at once, each adding plans to the field.
    const rows = Array.from({ length: 1000 }, (_, i) => `Answer ${i},Plan ${1 + Math.floor(i / 100)}`);
    const run = await importCsv(['Answer,Plan', ...rows].join('\n'), settings);
    expect(run).toMatchObject({ status: 'COMPLETED', recordsCreated: 1000, recordsFailed: 0 });
    const owner = a.server.fieldbook.db.owner;
    const field = await owner('channel_fields')
      .where({ channel_id: a.channelId, label: 'Plan' })
      .first('id', 'options');
    const plans = (field.options as Array<{ label: string }>).map((o) => o.label).sort();
    expect(plans).toEqual(Array.from({ length: 11 }, (_, i) => `Plan ${i}`).sort());
    const { rows: unknown } = await owner.raw(
      `select count(*)::int as n from channel_datapoints where channel_id = ? and not (fields ->> ?::text = any(?::text[]))`,
      [a.channelId, field.id, plans],
    );
    expect(unknown[0].n).toBe(0);
  });

  it('imports a file of several batches and lists the run with its counts', async () => {
    const rows = Array.from({ length: 450 }, (_, i) => `Point ${i},2026-05-${String((i % 28) + 1).padStart(2, '0')}`);
    const run = await importCsv(['Comment,Date', ...rows].join('\n'), {
      analyzeColumnLabel: 'Comment',
      timestampColumnLabel: 'Date',
    });
    expect(run).toMatchObject({ status: 'COMPLETED', recordsRead: 450, recordsCreated: 450 });
    const imports = ok(
      await a.viewer.gql<{ channelImports: Array<{ id: string }> }>(
        'query($c: ID!) { channelImports(channelId: $c) { id } }',
        { c: a.channelId },
      ),
    ).channelImports;
    expect(imports[0]!.id).toBe(run.id);
    const series = ok(
      await a.viewer.gql<{ channelDataPointSeries: Array<{ start: string; count: number }> }>(
        'query($c: ID!) { channelDataPointSeries(channelId: $c, interval: DAY, aggregationPeriods: 1, from: "2026-05-01", to: "2026-05-28") { start count } }',
        { c: a.channelId },
      ),
    ).channelDataPointSeries;
    expect(series).toHaveLength(28);
    expect(series.reduce((n, p) => n + p.count, 0)).toBe(450);
    // A data point's dataset, channel and workspace are one key: it cannot name another channel's dataset.
    const owner = a.server.fieldbook.db.owner;
    const { dataset_id: datasetId } = await owner('channel_imports').where({ id: run.id }).first('dataset_id');
    const other = await createChannel(a.admin, 'Elsewhere');
    await expect(
      owner('channel_datapoints').insert({
        workspace_id: a.ws.id,
        channel_id: other.id,
        dataset_id: datasetId,
        external_id: 'stray',
        source: 'CSV',
        content: 'Stray',
        created_at: new Date(),
      }),
    ).rejects.toThrow(/channel_datapoints_dataset_foreign/);
    const bad = await a.viewer.gql(
      'query($c: ID!) { channelDataPointSeries(channelId: $c, aggregationPeriods: 6) { count } }',
      { c: a.channelId },
    );
    expect(bad.errors?.[0]?.message).toBe('aggregationPeriods must be from 1 to 5.');
  });
});
