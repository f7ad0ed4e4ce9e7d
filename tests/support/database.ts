import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createKnex } from '../../core/src/db/connections.ts';
import { TEMPLATE_DB, withDatabase } from './global-setup.ts';

/** A fresh, migrated database for one test file, copied from the run's template. */
export async function createTestDatabase(): Promise<string> {
  const superUrl = inject('pgSuperUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = createKnex(superUrl, 1);
  try {
    await admin.raw(`create database ${name} template ${TEMPLATE_DB}`);
  } finally {
    await admin.destroy();
  }
  return withDatabase(superUrl, name);
}
