import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import type { Invalidations } from '../db/invalidations.ts';
import type { IdentityServices } from '../identity/module.ts';
import type { Mailer } from '../email/mailer.ts';
import type { Logger } from '../logger.ts';

/** What the workspace parts share: built once in module.ts. */
export interface WorkspacesDeps {
  config: Config;
  /** The row-level-security-bound connection. */
  app: Knex;
  mailer: Mailer;
  logger: Logger;
  identity: Pick<IdentityServices, 'recheckPassword'>;
  /** Tells every process that a cached membership or workspace changed. */
  invalidations: Invalidations;
}
