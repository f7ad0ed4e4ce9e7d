import type { Knex } from 'knex';
import { withTenant, type EventBus, type Job, type JobDefinition, type ModuleContext } from '@fieldbook/core';
import type { ClusterResult } from './cluster/cluster.ts';
import { clusterOffThread } from './cluster/offthread.ts';
import { matchGroups } from './match.ts';
import { embeddingsFor } from './embeddings.ts';

/** One clustering run of a channel, queued by a person or by the first import. */
export interface ClusteringJob {
  workspaceId: string;
  userId: string | null;
  channelId: string;
  clusteringId: string;
}

export const CLUSTERING_QUEUE = 'channel-clustering';
export const THEME_CREATED = 'theme:created';
export const TOPIC_CREATED = 'topic:created';

interface ClusteringRow {
  id: string;
  workspace_id: string;
  channel_id: string;
  version: number;
  status: string;
  sensitivity: number;
  amount: number | null;
}

const INSERT_BATCH = 1000;

async function progress(app: Knex, job: ClusteringJob, patch: Record<string, unknown>): Promise<void> {
  await withTenant(app, { workspaceId: job.workspaceId, userId: job.userId }, (trx) =>
    trx('channel_clusterings').where({ id: job.clusteringId }).update(patch),
  );
}

/**
 * Writes a run's result: groups matched to the themes before keep their ids (and manual titles),
 * new ones are created with theme:created in this same transaction, themes no group matched are
 * retired unless a person placed points in them; memberships are replaced except people's moves.
 */
export async function saveClustering(
  trx: Knex.Transaction,
  events: EventBus,
  run: ClusteringRow,
  points: ReadonlyArray<{ id: string }>,
  result: ClusterResult,
  manual: ReadonlyMap<string, string | null>,
): Promise<{ themes: number; outliers: number }> {
  const channel = (await trx('channels').where({ id: run.channel_id }).first('name')) as { name: string };
  const old = (await trx('channel_themes')
    .where({ channel_id: run.channel_id })
    .whereNull('retired_at')
    .select('id', 'title_manual')) as Array<{ id: string; title_manual: boolean }>;
  const oldMembers = new Map<string, Set<string>>(old.map((t) => [t.id, new Set<string>()]));
  const memberRows = (await trx('channel_theme_members')
    .where({ channel_id: run.channel_id })
    .whereNotNull('theme_id')
    .select('datapoint_id', 'theme_id')) as Array<{ datapoint_id: string; theme_id: string }>;
  for (const m of memberRows) oldMembers.get(m.theme_id)?.add(m.datapoint_id);
  const groups = result.themes.map((t) => t.members.map((i) => points[i]!.id));
  const matched = matchGroups(groups, oldMembers);

  const themeIds: string[] = [];
  for (const [i, theme] of result.themes.entries()) {
    const fields = {
      phrases: JSON.stringify(theme.phrases),
      centroid: JSON.stringify(theme.centroid),
      min_similarity: theme.minSimilarity,
      version: run.version,
      updated_at: trx.fn.now(),
      retired_at: null,
    };
    const id = matched.get(i);
    if (id) {
      const keepTitle = old.find((t) => t.id === id)!.title_manual;
      await trx('channel_themes')
        .where({ id })
        .update({ ...fields, ...(keepTitle ? {} : { title: theme.title }) });
      themeIds.push(id);
    } else {
      const [row] = (await trx('channel_themes')
        .insert({ ...fields, workspace_id: run.workspace_id, channel_id: run.channel_id, title: theme.title })
        .returning(['id', 'title'])) as Array<{ id: string; title: string }>;
      themeIds.push(row!.id);
      await events.publish(
        THEME_CREATED,
        run.workspace_id,
        { channel: { id: run.channel_id, title: channel.name }, theme: { id: row!.id, title: row!.title } },
        trx,
      );
    }
  }
  const kept = new Set(themeIds);
  const manuallyUsed = new Set([...manual.values()].filter((v): v is string => !!v));
  const retire = old.map((t) => t.id).filter((id) => !kept.has(id) && !manuallyUsed.has(id));
  if (retire.length)
    await trx('channel_themes').whereIn('id', retire).update({ retired_at: trx.fn.now(), topic_id: null });

  // Memberships: everyone's placement is this run's, except where a person moved a point.
  await trx('channel_theme_members').where({ channel_id: run.channel_id, manual: false }).delete();
  const rows: Array<Record<string, unknown>> = [];
  result.themes.forEach((theme, i) =>
    theme.members.forEach((m, j) => {
      const id = points[m]!.id;
      if (!manual.has(id))
        rows.push({
          datapoint_id: id,
          workspace_id: run.workspace_id,
          channel_id: run.channel_id,
          theme_id: themeIds[i],
          similarity: theme.similarities[j],
        });
    }),
  );
  for (const o of result.outliers) {
    const id = points[o]!.id;
    if (!manual.has(id))
      rows.push({
        datapoint_id: id,
        workspace_id: run.workspace_id,
        channel_id: run.channel_id,
        theme_id: null,
        similarity: null,
      });
  }
  for (let i = 0; i < rows.length; i += INSERT_BATCH)
    await trx('channel_theme_members').insert(rows.slice(i, i + INSERT_BATCH));

  await saveTopics(trx, events, run, channel.name, result, themeIds);
  return { themes: themeIds.length, outliers: result.outliers.length };
}

async function saveTopics(
  trx: Knex.Transaction,
  events: EventBus,
  run: ClusteringRow,
  channelName: string,
  result: ClusterResult,
  themeIds: readonly string[],
): Promise<void> {
  const old = (await trx('channel_topics')
    .where({ channel_id: run.channel_id })
    .whereNull('retired_at')
    .select('id', 'title_manual')) as Array<{ id: string; title_manual: boolean }>;
  const oldThemes = new Map<string, Set<string>>(old.map((t) => [t.id, new Set<string>()]));
  const themed = (await trx('channel_themes')
    .where({ channel_id: run.channel_id })
    .whereNotNull('topic_id')
    .select('id', 'topic_id')) as Array<{ id: string; topic_id: string }>;
  for (const t of themed) oldThemes.get(t.topic_id)?.add(t.id);
  const groups = result.topics.map((t) => t.themes.map((i) => themeIds[i]!));
  const matched = matchGroups(groups, oldThemes);
  const topicIds: string[] = [];
  for (const [i, topic] of result.topics.entries()) {
    const id = matched.get(i);
    if (id) {
      const manualTitle = old.find((t) => t.id === id)!.title_manual;
      await trx('channel_topics')
        .where({ id })
        .update({ version: run.version, updated_at: trx.fn.now(), ...(manualTitle ? {} : { title: topic.title }) });
      topicIds.push(id);
    } else {
      const [row] = (await trx('channel_topics')
        .insert({
          workspace_id: run.workspace_id,
          channel_id: run.channel_id,
          title: topic.title,
          version: run.version,
        })
        .returning(['id', 'title'])) as Array<{ id: string; title: string }>;
      topicIds.push(row!.id);
      await events.publish(
        TOPIC_CREATED,
        run.workspace_id,
        { channel: { id: run.channel_id, title: channelName }, topic: { id: row!.id, title: row!.title } },
        trx,
      );
    }
  }
  const kept = new Set(topicIds);
  const retire = old.map((t) => t.id).filter((id) => !kept.has(id));
  await trx('channel_themes').where({ channel_id: run.channel_id }).update({ topic_id: null });
  if (retire.length) await trx('channel_topics').whereIn('id', retire).update({ retired_at: trx.fn.now() });
  for (const [i, topic] of result.topics.entries())
    await trx('channel_themes')
      .whereIn(
        'id',
        topic.themes.map((t) => themeIds[t]!),
      )
      .update({ topic_id: topicIds[i] });
}

/** How often a running clustering says it is alive, with its latest progress. */
export const CLUSTERING_BEAT_SECONDS = 3;
/** A running clustering silent this long lost its worker: it is being taken over (or will fail). */
export const CLUSTERING_STALE_SECONDS = 15;

/** The text of a point clustering reads: as much as an embedding is made of, so a run's memory is bounded. */
const CLUSTER_TEXT_CHARS = 8000;

/**
 * Writes the run's heartbeat and latest progress every few seconds until stopped. A write still
 * waiting (the database is slow) is not joined by another.
 */
function beat(app: Knex, job: ClusteringJob): { progress(fraction: number): void; stop(): void } {
  let latest: number | null = null;
  let pending = false;
  const timer = setInterval(() => {
    if (pending) return;
    pending = true;
    const patch = { heartbeat_at: app.fn.now(), ...(latest === null ? {} : { progress: latest }) };
    void withTenant(app, { workspaceId: job.workspaceId, userId: job.userId }, (trx) =>
      trx('channel_clusterings').where({ id: job.clusteringId, status: 'RUNNING' }).update(patch),
    )
      // A beat that fails is followed by the next; a run that stays silent shows as being taken over.
      .catch(() => {})
      .finally(() => (pending = false));
  }, CLUSTERING_BEAT_SECONDS * 1000);
  return { progress: (fraction) => (latest = fraction), stop: () => clearInterval(timer) };
}

/**
 * Runs one clustering: loads the channel's points, represents them, clusters and saves. The
 * clustering itself runs in a worker thread; a run found RUNNING is one whose worker died, and
 * starts again from the points (nothing of it was saved).
 */
export async function runClustering(ctx: ModuleContext, job: ClusteringJob): Promise<void> {
  const scope = { workspaceId: job.workspaceId, userId: job.userId };
  const loaded = await withTenant(ctx.db.app, scope, async (trx) => {
    const run = (await trx('channel_clusterings').where({ id: job.clusteringId }).first()) as ClusteringRow | undefined;
    if (!run || run.status === 'COMPLETED' || run.status === 'FAILED') return null;
    await trx('channel_clusterings')
      .where({ id: run.id })
      .update({ status: 'RUNNING', progress: 0.05, heartbeat_at: trx.fn.now() });
    const points = (await trx('channel_datapoints')
      .where({ workspace_id: job.workspaceId, channel_id: job.channelId })
      .orderBy('id')
      .select('id', trx.raw('left(content, ?) as content', [CLUSTER_TEXT_CHARS]))) as Array<{
      id: string;
      content: string;
    }>;
    const manualRows = (await trx('channel_theme_members')
      .where({ channel_id: job.channelId, manual: true })
      .select('datapoint_id', 'theme_id')) as Array<{ datapoint_id: string; theme_id: string | null }>;
    return { run, points, manual: new Map(manualRows.map((m) => [m.datapoint_id, m.theme_id])) };
  });
  if (!loaded) return;
  const { run, points, manual } = loaded;
  const alive = beat(ctx.db.app, job);
  try {
    const embeddings = await embeddingsFor(ctx, scope, points);
    await progress(ctx.db.app, job, { progress: 0.3, representation: embeddings?.model ?? 'local' });
    const result = await clusterOffThread(
      { texts: points.map((p) => p.content), embeddings, sensitivity: run.sensitivity, amountPercent: run.amount },
      (fraction) => alive.progress(Math.round((0.3 + 0.5 * fraction) * 100) / 100),
    );
    // Saving a large channel takes a while too: the run keeps beating until it has ended.
    alive.progress(0.8);
    await progress(ctx.db.app, job, { progress: 0.8 });
    await withTenant(ctx.db.app, scope, async (trx) => {
      // One clustering writes a channel's themes at a time.
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`channel-themes:${job.channelId}`]);
      // A worker thought dead but only slow may have saved this run meanwhile: it is saved once.
      const now = (await trx('channel_clusterings').where({ id: run.id }).first('status')) as { status: string };
      if (now.status !== 'RUNNING') return;
      const saved = await saveClustering(trx, ctx.events, run, points, result, manual);
      await trx('channel_clusterings')
        .where({ id: run.id })
        .update({
          status: 'COMPLETED',
          progress: 1,
          model: JSON.stringify(result.model),
          theme_count: saved.themes,
          outlier_count: saved.outliers,
          point_count: points.length,
          completed_at: trx.fn.now(),
        });
    });
  } catch (error) {
    ctx.logger.error({ err: error, clusteringId: run.id }, 'channel clustering failed');
    await progress(ctx.db.app, job, {
      status: 'FAILED',
      error: 'Clustering failed because of an error on our side. Please try again.',
      completed_at: new Date(),
    });
  } finally {
    alive.stop();
  }
}

/**
 * Retries of a run whose worker died (its heartbeat lapsed): another worker starts it again from
 * the points, as nothing of a run is kept until its one saving transaction commits.
 */
export const CLUSTERING_RETRY_LIMIT = 2;

export const CLUSTERING_LOST_ERROR = 'Clustering stopped because the server running it went away. Please try again.';

export function clusteringJob(ctx: ModuleContext): JobDefinition<ClusteringJob> {
  return {
    queue: CLUSTERING_QUEUE,
    settings: { retryLimit: CLUSTERING_RETRY_LIMIT, retryDelaySeconds: 2, expireInSeconds: 60 * 60 },
    handler: (job: Job<ClusteringJob>) => runClustering(ctx, job.data),
    // Its worker died on every try: the run ends as failed, and the channel may be clustered again.
    exhausted: (job: Job<ClusteringJob>) =>
      withTenant(ctx.db.app, { workspaceId: job.data.workspaceId, userId: job.data.userId }, (trx) =>
        trx('channel_clusterings')
          .where({ id: job.data.clusteringId })
          .whereIn('status', ['QUEUED', 'RUNNING'])
          .update({ status: 'FAILED', error: CLUSTERING_LOST_ERROR, completed_at: trx.fn.now() }),
      ).then(() => undefined),
  };
}
