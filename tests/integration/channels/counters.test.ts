import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_FILTER } from '../../../modules/channels/src/datapoints/filter.ts';
import { withTenant } from '../../../core/src/index.ts';
import { ok } from '../research/content-support.ts';
import { post, useChannelFixture, waitForImport } from './support.ts';

/**
 * The channel page counts from daily counters kept by the database with every write: these
 * tests hold the counters to what counting the data points themselves gives, through inserts,
 * moves to another day, deletes (in a request's scope and without one) and a dataset's removal.
 */
const a = useChannelFixture('Counted feedback');

const push = async (points: Array<{ externalId: string; createdAt: string }>) => {
  const res = await post(
    a.server,
    `/api/channels/${a.channelId}/datapoints`,
    JSON.stringify({ dataPoints: points.map((p) => ({ ...p, content: `Feedback ${p.externalId}` })) }),
    {
      token: a.contributor.accessToken,
      workspace: a.ws.id,
    },
  );
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json;
};

/** The counters, beside the same counts taken from the data points. */
async function countersAndTruth(): Promise<{ counters: string[]; truth: string[] }> {
  const owner = a.server.fieldbook.db.owner;
  const counters = (await owner('channel_datapoint_counts')
    .where({ channel_id: a.channelId })
    .orderBy(['dataset_id', 'day'])
    .select('dataset_id', owner.raw(`to_char(day, 'YYYY-MM-DD') as day`), 'count')) as Array<{
    dataset_id: string;
    day: string;
    count: number;
  }>;
  const { rows } = await owner.raw<{ rows: Array<{ dataset_id: string; day: string; count: number }> }>(
    `select dataset_id, to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, count(*)::int as count from channel_datapoints where channel_id = ? group by 1, 2 order by 1, 2`,
    [a.channelId],
  );
  const show = (r: { dataset_id: string; day: string; count: number }) => `${r.dataset_id} ${r.day} ${r.count}`;
  return { counters: counters.map(show), truth: rows.map(show) };
}

async function expectCountersRight(): Promise<void> {
  const { counters, truth } = await countersAndTruth();
  expect(counters).toEqual(truth);
}

const SERIES =
  'query($c: ID!, $i: ChannelInterval, $p: Int, $from: String, $to: String) { channelDataPointSeries(channelId: $c, interval: $i, aggregationPeriods: $p, from: $from, to: $to) { start count } }';
const series = async (vars: Record<string, unknown>) =>
  ok(
    await a.viewer.gql<{ channelDataPointSeries: Array<{ start: string; count: number }> }>(SERIES, {
      c: a.channelId,
      ...vars,
    }),
  ).channelDataPointSeries;
const total = async (vars: Record<string, unknown> = {}) =>
  ok(
    await a.viewer.gql<{ channelDataPoints: { totalCount: number } }>(
      'query($c: ID!, $from: String, $to: String, $s: String) { channelDataPoints(channelId: $c, from: $from, to: $to, search: $s) { totalCount } }',
      { c: a.channelId, ...vars },
    ),
  ).channelDataPoints.totalCount;
const channel = async () =>
  ok(
    await a.viewer.gql<{ channel: { dataPointCount: number; datasets: Array<{ name: string; pointCount: number }> } }>(
      'query($c: ID!) { channel(id: $c) { dataPointCount datasets { name pointCount } } }',
      { c: a.channelId },
    ),
  ).channel;

describe('daily counters of a channel', () => {
  const dates = [
    '2026-03-01T00:00:00Z',
    '2026-03-01T23:59:59Z',
    '2026-03-02T10:00:00Z',
    '2026-03-09T12:00:00Z',
    '2026-04-15T08:00:00Z',
    '2026-04-15T09:00:00Z',
  ];

  it('count what is pushed, per day and dataset, and answer the page as the points do', async () => {
    await push(dates.map((createdAt, i) => ({ externalId: `p${i}`, createdAt })));
    await expectCountersRight();
    expect((await countersAndTruth()).counters).toHaveLength(4);
    expect(await channel()).toMatchObject({ dataPointCount: 6, datasets: [{ pointCount: 6 }] });
    // Whole days read the counters; a range that starts inside a day counts the points.
    expect(await total()).toBe(6);
    expect(await total({ from: '2026-03-01', to: '2026-03-02' })).toBe(3);
    expect(await total({ from: '2026-03-01T12:00:00Z', to: '2026-04-15T08:30:00Z' })).toBe(4);
    expect(await total({ from: '2026-03-01', s: 'Feedback p1' })).toBe(1);
  });

  it('chart the same buckets from the counters as from the points, for every interval and aggregation period', async () => {
    for (const interval of ['DAY', 'WEEK', 'MONTH']) {
      for (let periods = 1; periods <= 5; periods++) {
        // The same points either way: whole days (counters) or a range a millisecond inside them (points).
        const counted = await series({ i: interval, p: periods, from: '2026-02-27', to: '2026-04-20' });
        const exact = await series({
          i: interval,
          p: periods,
          from: '2026-02-27T00:00:00.001Z',
          to: '2026-04-20T23:59:59.998Z',
        });
        expect(counted, `${interval} × ${periods}`).toEqual(exact);
        expect(counted.reduce((n, b) => n + b.count, 0)).toBe(6);
      }
    }
    expect(await series({ i: 'WEEK', p: 2 })).toEqual([
      { start: '2026-02-23T00:00:00.000Z', count: 3 },
      { start: '2026-03-09T00:00:00.000Z', count: 1 },
      { start: '2026-03-23T00:00:00.000Z', count: 0 },
      { start: '2026-04-06T00:00:00.000Z', count: 2 },
    ]);
  });

  it('follow a point moved to another day, points deleted with or without a tenant scope, and a dataset removed', async () => {
    // Pushed again with another date: the same point, one day less in April, one more in May.
    const again = await push([{ externalId: 'p5', createdAt: '2026-05-20T10:00:00Z' }]);
    expect(again).toMatchObject({ created: 0, updated: 1 });
    await expectCountersRight();
    expect(await total({ from: '2026-05-01', to: '2026-05-31' })).toBe(1);

    // Deleted by a request (its tenant scope set) and by the owner with none.
    const app = a.server.fieldbook.db.app;
    await withTenant(app, { workspaceId: a.ws.id }, (trx) =>
      trx('channel_datapoints').where({ channel_id: a.channelId, external_id: 'p0' }).del(),
    );
    await a.server.fieldbook.db.owner('channel_datapoints').where({ channel_id: a.channelId, external_id: 'p3' }).del();
    await expectCountersRight();
    expect((await channel()).dataPointCount).toBe(4);

    // A CSV import is a dataset of its own; removing it takes its counters with it.
    const csv = ['Comment,Date', 'Slow search,2026-03-02', 'Love the tags,2026-06-01'].join('\n');
    const started = await post(
      a.server,
      `/api/channels/${a.channelId}/imports?name=Extra&settings=${encodeURIComponent(JSON.stringify({ analyzeColumnLabel: 'Comment', timestampColumnLabel: 'Date' }))}`,
      csv,
      {
        token: a.contributor.accessToken,
        workspace: a.ws.id,
        type: 'text/csv',
      },
    );
    expect(started.status).toBe(202);
    expect(await waitForImport(a.contributor.gql, started.json.importId as string)).toMatchObject({
      status: 'COMPLETED',
      recordsCreated: 2,
    });
    await expectCountersRight();
    expect((await channel()).datasets.map((d) => d.pointCount).sort()).toEqual([2, 4]);
    await a.server.fieldbook.db
      .owner('channel_datasets')
      .where({ id: started.json.datasetId as string })
      .del();
    await expectCountersRight();
    expect(await channel()).toMatchObject({ dataPointCount: 4, datasets: [{ pointCount: 4 }] });
  });
});

describe('the text filter of a channel page', () => {
  // 60 points a day apart in 2027 (a range of their own): every one says alpha, three say beta
  // (spread out), the eight oldest say gamma.
  const points = Array.from({ length: 60 }, (_, i) => ({
    externalId: `f${i}`,
    createdAt: new Date(Date.UTC(2027, 0, 1 + i, 12)).toISOString(),
    content: `Alphabet alpha ${i}${i % 20 === 7 ? ' beta' : ''}${i < 8 ? ' gamma' : ''}`,
  }));
  const newest = (keep: (content: string) => boolean) =>
    points
      .filter((p) => keep(p.content))
      .reverse()
      .map((p) => p.externalId);
  const PAGE =
    'query($c: ID!, $s: String, $after: String, $first: Int) { channelDataPoints(channelId: $c, search: $s, after: $after, first: $first, from: "2027-01-01", to: "2027-12-31") { totalCount totalCountIsEstimate hasNextPage endCursor nodes { externalId } } }';
  const page = async (s: string, first = 25, after: string | null = null) =>
    ok(
      await a.viewer.gql<{
        channelDataPoints: {
          totalCount: number;
          totalCountIsEstimate: boolean;
          hasNextPage: boolean;
          endCursor: string;
          nodes: Array<{ externalId: string }>;
        };
      }>(PAGE, { c: a.channelId, s, first, after }),
    ).channelDataPoints;
  const saved = { ...TEXT_FILTER };

  beforeAll(async () => {
    const res = await post(
      a.server,
      `/api/channels/${a.channelId}/datapoints`,
      JSON.stringify({ dataPoints: points }),
      { token: a.contributor.accessToken, workspace: a.ws.id },
    );
    expect(res.status).toBe(200);
    // Small bounds, so 60 points take every path a million do.
    Object.assign(TEXT_FILTER, { exactCountLimit: 5, sampleRows: 10, walkBudget: 20, estimateRows: 3000 });
  });
  afterAll(() => void Object.assign(TEXT_FILTER, saved));

  it('pages through the matches newest first, counting exactly up to the limit and estimating past it', async () => {
    // Common: the sample says so; the count is an estimate, the page the newest matches, and the next page follows on.
    const common = await page('alpha', 4);
    expect(common).toMatchObject({ totalCount: 60, totalCountIsEstimate: true, hasNextPage: true });
    expect(common.nodes.map((n) => n.externalId)).toEqual(newest(() => true).slice(0, 4));
    expect((await page('alpha', 4, common.endCursor)).nodes.map((n) => n.externalId)).toEqual(
      newest(() => true).slice(4, 8),
    );
    // Words are prefixes and all required.
    expect((await page('alph 5')).nodes.map((n) => n.externalId)).toEqual(
      newest((c) => c.split(' ').some((w) => w.startsWith('5'))),
    );
    expect((await page('alph 5')).nodes).toHaveLength(11);
    // Rare: found through the text index and counted exactly.
    const rare = await page('beta');
    expect(rare).toMatchObject({ totalCount: 3, totalCountIsEstimate: false, hasNextPage: false });
    expect(rare.nodes.map((n) => n.externalId)).toEqual(newest((c) => c.includes('beta')));
    // Over the limit though none of the newest match: an estimate from pages sampled across the
    // channel (all of so small a one), and still every match in order, past the walk's reach.
    const old = await page('gamma');
    expect(old).toMatchObject({ totalCount: 8, totalCountIsEstimate: true, hasNextPage: false });
    expect(old.nodes.map((n) => n.externalId)).toEqual(newest((c) => c.includes('gamma')));
    // Older than the newest few but within the walk's reach: the walk fills the page.
    const walked = await page('alpha 4', 2);
    expect(walked.nodes.map((n) => n.externalId)).toEqual(
      newest((c) => c.split(' ').some((w) => w.startsWith('4'))).slice(0, 2),
    );
    expect(await page('nothing')).toMatchObject({ totalCount: 0, totalCountIsEstimate: false, nodes: [] });
    // No words at all filter nothing out.
    expect(await page('!!')).toMatchObject({ totalCount: 60, totalCountIsEstimate: false });
  });
});
