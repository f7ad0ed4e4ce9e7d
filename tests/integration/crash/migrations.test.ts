import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKnex } from '../../../core/src/db/connections.ts';
import { migrateLatest } from '../../../core/src/db/migrate.ts';
import { migrations } from '../../../migrations/index.ts';
import { withDatabase } from '../../support/global-setup.ts';

/** A first start killed while it migrated, then started again. */
describe('migrating after a start that was killed while migrating', () => {
  let admin: Knex;
  let owner: Knex;
  const name = `t_mig_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    admin = createKnex(inject('pgSuperUrl'), 1);
    await admin.raw(`create database ${name}`);
    owner = createKnex(withDatabase(inject('pgSuperUrl'), name), 4);
  });
  afterAll(async () => {
    await owner?.destroy();
    await admin?.raw(`drop database if exists ${name} with (force)`);
    await admin?.destroy();
  });

  it("migrates though the killed start left knex's migration lock set", { timeout: 120_000 }, async () => {
    // What knex leaves behind when its process dies between taking its lock and releasing it.
    await owner.raw(
      'create table knex_migrations (id serial primary key, name varchar(255), batch integer, migration_time timestamptz)',
    );
    await owner.raw('create table knex_migrations_lock (index serial primary key, is_locked integer)');
    await owner.raw('insert into knex_migrations_lock (is_locked) values (1)');

    const applied = await migrateLatest(owner);
    expect(applied).toEqual(migrations.map((m) => m.name));
    expect(await migrateLatest(owner)).toEqual([]); // and the next start finds nothing to do

    // Functions a later migration retired are gone, and come back when it is undone.
    const fn = async (name: string) =>
      (
        (await owner.raw('select count(*)::int as n from pg_proc where proname = ?', [name])) as {
          rows: Array<{ n: number }>;
        }
      ).rows[0]!.n;
    expect([await fn('search_plan_rows'), await fn('search_plan_types')]).toEqual([0, 1]);
    const retired = migrations.find((m) => m.name === '0092_drop_search_plan_rows')!;
    await retired.down(owner);
    expect(await fn('search_plan_rows')).toBe(1);
    await retired.up(owner);
    expect(await fn('search_plan_rows')).toBe(0);
  });

  it('lets two processes start at once: one migrates, the other waits and finds it done', {
    timeout: 120_000,
  }, async () => {
    const second = `${name}_b`;
    await admin.raw(`create database ${second}`);
    const a = createKnex(withDatabase(inject('pgSuperUrl'), second), 4);
    const b = createKnex(withDatabase(inject('pgSuperUrl'), second), 4);
    try {
      const [first, other] = await Promise.all([migrateLatest(a), migrateLatest(b)]);
      expect([...first, ...other].sort()).toEqual(migrations.map((m) => m.name).sort());
    } finally {
      await a.destroy();
      await b.destroy();
      await admin.raw(`drop database if exists ${second} with (force)`);
    }
  });
});
