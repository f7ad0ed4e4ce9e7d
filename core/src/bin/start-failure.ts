import { diskStartupErrorFrom, StartupError } from '../db/startup-error.ts';

/**
 * What a failed start prints: what happened and what to do, in two short paragraphs, whatever
 * was thrown (a library may reject with nothing at all).
 */
export function describeStartFailure(err: unknown, env: { port?: number; databaseUrlSet: boolean }): string {
  const [what, todo] = explain(err, env);
  return `Fieldbook could not start: ${what}\n${todo}`;
}

function explain(err: unknown, env: { port?: number; databaseUrlSet: boolean }): [string, string] {
  if (err instanceof StartupError) return [err.message, err.whatToDo];
  // A full or read-only disk met anywhere in the start (the secret, plugin bundles) is told as such.
  const disk = diskStartupErrorFrom(err);
  if (disk) return [disk.message, disk.whatToDo];
  const code = (err as { code?: unknown } | null)?.code;
  const message =
    err instanceof Error ? err.message : err === undefined || err === null ? 'an error without a message' : String(err);
  if (code === 'EADDRINUSE') {
    return [
      `port ${env.port ?? ''} is already in use (${message}).`,
      'Stop the program using it, or set PORT to a free port.',
    ];
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === '28P01' || code === '3D000') {
    return env.databaseUrlSet
      ? [
          `the database in DATABASE_URL cannot be used (${message}).`,
          'Check that PostgreSQL runs there and that DATABASE_URL names the right host, port, database, user and password.',
        ]
      : [
          `the embedded PostgreSQL cannot be reached (${message}).`,
          'Start Fieldbook again; if this persists, set LOG_LEVEL=debug to see what PostgreSQL printed.',
        ];
  }
  return [message, 'Set LOG_LEVEL=debug for details; if the problem persists, report it with that output.'];
}
