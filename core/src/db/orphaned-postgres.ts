import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logger.ts';
import { StartupError } from './startup-error.ts';

/** What `postmaster.pid` says about the server that last ran on a data folder. */
export interface PostmasterLock {
  pid: number;
  dataDir: string;
  port: number | null;
}

/** How long a fast shutdown of a left-over server may take before we give up and say so. */
const STOP_TIMEOUT_MS = 30_000;

/** Reads the lock file PostgreSQL keeps in its data folder while it runs; null when there is none. */
export function readPostmasterLock(databaseDir: string): PostmasterLock | null {
  const path = join(databaseDir, 'postmaster.pid');
  if (!existsSync(path)) return null;
  const [pidLine, dirLine, , portLine] = readFileSync(path, 'utf8').split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const port = Number(portLine);
  return { pid, dataDir: dirLine?.trim() ?? '', port: Number.isInteger(port) && port > 0 ? port : null };
}

/** The state letter and parent of a process from /proc, or null where there is no /proc. */
function processStat(pid: number): { state: string; parentPid: number } | null {
  try {
    // The command name in parentheses may hold spaces; the fields after its closing one do not.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state ?? '', parentPid: Number(parent) };
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  // A zombie has exited; only its parent has not collected it yet.
  if (processStat(pid)?.state === 'Z') return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What `ps` says about a process, where there is no /proc (macOS); null when it cannot say. */
function ps(pid: number, field: 'ppid' | 'command'): string | null {
  try {
    return (
      execFileSync('ps', ['-o', `${field}=`, '-p', String(pid)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() || null
    );
  } catch {
    return null;
  }
}

/** The command line of a process, or null where the system does not show it. */
function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return ps(pid, 'command')?.split(/\s+/) ?? null;
  }
}

function parentOf(pid: number): number | null {
  const parent = processStat(pid)?.parentPid ?? Number(ps(pid, 'ppid'));
  return Number.isInteger(parent) && parent > 0 ? parent : null;
}

/**
 * True when `pid` is a PostgreSQL server of this data folder. When the system will not say, we
 * trust the lock file, which PostgreSQL itself trusts the same way.
 */
function isPostgresOf(pid: number, databaseDir: string): boolean {
  const argv = commandLine(pid);
  if (!argv) return true;
  const dataFlag = argv.indexOf('-D');
  return /postgres$/.test(argv[0] ?? '') && dataFlag >= 0 && resolve(argv[dataFlag + 1] ?? '') === resolve(databaseDir);
}

/**
 * A process killed without a chance to stop its embedded PostgreSQL (kill -9, a power cut of
 * the terminal) leaves that server running, and its lock on the data folder blocks every later
 * start. Before starting, this finds such a server by its lock file and stops it with a fast
 * shutdown (the same as `pg_ctl stop -m fast`: sessions end, committed work is kept). A lock
 * file whose process is gone, or whose pid now names another program, is removed.
 */
export async function stopOrphanedPostgres(databaseDir: string, logger: Logger): Promise<void> {
  const lock = readPostmasterLock(databaseDir);
  if (!lock) return;
  if (!isAlive(lock.pid) || !isPostgresOf(lock.pid, databaseDir)) {
    logger.info(
      { postgresPid: lock.pid },
      'removing the lock file of an embedded PostgreSQL that is no longer running',
    );
    rmSync(join(databaseDir, 'postmaster.pid'), { force: true });
    return;
  }
  // A server whose parent is a running Node process belongs to a Fieldbook that is still up:
  // stopping it would take the database from under that Fieldbook.
  const parentPid = parentOf(lock.pid);
  if (parentPid && parentPid > 1 && /node/.test(commandLine(parentPid)?.join(' ') ?? '')) {
    throw new StartupError(
      `Another Fieldbook (pid ${parentPid}) is running with the data folder ${resolve(databaseDir, '..')}.`,
      'Stop that Fieldbook first, or give this one another FIELDBOOK_DATA_DIR and EMBEDDED_PG_PORT.',
    );
  }
  logger.warn(
    { postgresPid: lock.pid, port: lock.port },
    'the embedded PostgreSQL of an earlier start is still running (that start did not stop); stopping it',
  );
  process.kill(lock.pid, 'SIGINT');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(lock.pid)) {
    if (Date.now() > deadline) {
      throw new StartupError(
        `The embedded PostgreSQL left running by an earlier start (pid ${lock.pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s.`,
        `Stop it yourself (kill ${lock.pid}) and start Fieldbook again.`,
      );
    }
    await sleep(50);
  }
}
