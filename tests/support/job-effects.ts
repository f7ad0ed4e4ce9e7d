import type { Knex } from 'knex';
import { once, type JobDefinition } from '../../core/src/jobs/queue.ts';

/** Where a worker stops for good, to stand for a process that dies at that point. */
export type HangAt = 'inside-effect' | 'after-effect' | 'never';

export interface EffectJobData {
  label: string;
}

/** Tables the effect job writes; a test database gets them once. */
export async function createEffectTables(knex: Knex): Promise<void> {
  await knex.schema.createTable('job_test_starts', (t) => {
    t.increments('id');
    t.string('job_id').notNullable();
    t.integer('pid').notNullable();
    t.integer('retry_count').notNullable();
  });
  await knex.schema.createTable('job_test_effects', (t) => {
    t.increments('id');
    t.string('job_id').notNullable();
    t.string('label').notNullable();
  });
}

/**
 * A job whose effect (one row in `job_test_effects`) goes through `once()`. Each attempt first
 * records its start, so a test sees both that a job was retried and that its effect was not.
 */
export function effectJob(opts: {
  knex: Knex;
  queue: string;
  expireInSeconds: number;
  hangAt: HangAt;
}): JobDefinition<EffectJobData> {
  const { knex, queue, hangAt } = opts;
  const forever = () => new Promise<never>(() => {});
  return {
    queue,
    settings: { expireInSeconds: opts.expireInSeconds, retryLimit: 3, retryDelaySeconds: 1 },
    async handler(job) {
      await knex('job_test_starts').insert({ job_id: job.id, pid: process.pid, retry_count: job.retryCount });
      await knex.transaction(async (trx) => {
        await once(trx, `test-effect:${job.id}`, queue, async () => {
          await trx('job_test_effects').insert({ job_id: job.id, label: job.data.label });
          if (hangAt === 'inside-effect') await forever();
        });
      });
      if (hangAt === 'after-effect') await forever();
    },
  };
}
