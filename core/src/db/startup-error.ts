import { accessSync, constants, existsSync, mkdirSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A start that cannot go on, told the way an operator needs it: what happened and what to do.
 * `fieldbook` prints both and exits; nothing else about it is shown unless the log level asks.
 */
export class StartupError extends Error {
  readonly whatToDo: string;

  constructor(whatHappened: string, whatToDo: string, options: { cause?: unknown } = {}) {
    super(whatHappened, { cause: options.cause });
    this.name = 'StartupError';
    this.whatToDo = whatToDo;
  }
}

/** What is wrong with the disk a data folder is on, when that is why a start failed. */
export type DiskProblem = 'full' | 'read-only' | 'not-permitted';

/**
 * Free space a start needs in the data folder: a new embedded cluster takes about 40 MB, and
 * PostgreSQL writes a 16 MB log segment before it accepts a connection; the rest is headroom.
 */
export const REQUIRED_FREE_MB = 100;

const ERRNO: Record<string, DiskProblem> = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  EROFS: 'read-only',
  EACCES: 'not-permitted',
  EPERM: 'not-permitted',
};

// PostgreSQL and initdb print the C library's words for the same errors.
const WORDS: Array<[RegExp, DiskProblem]> = [
  [/No space left on device|Disk quota exceeded/i, 'full'],
  [/Read-only file system/i, 'read-only'],
  [/Permission denied|Operation not permitted/i, 'not-permitted'],
];

/**
 * The disk problem behind a failed start, from a Node error's code or from what PostgreSQL
 * printed; null when the failure is something else. A full disk wins over the rest: a folder
 * PostgreSQL cannot write to for lack of space is not a permission problem.
 */
export function diskProblemOf(err: unknown, printed: readonly string[] = []): DiskProblem | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && ERRNO[code]) return ERRNO[code];
  const text = [err instanceof Error ? err.message : '', ...printed].join('\n');
  for (const [words, problem] of WORDS) if (words.test(text)) return problem;
  return null;
}

/** Megabytes free for this process in the folder (or the nearest one that exists); null when the system will not say. */
export function freeMegabytes(folder: string): number | null {
  try {
    const s = statfsSync(folder);
    return Math.floor((s.bavail * s.bsize) / (1024 * 1024));
  } catch {
    return null;
  }
}

/** The start failure a disk problem in `folder` makes, saying which folder and, for a full disk, how much space is needed. */
export function diskStartupError(
  problem: DiskProblem,
  folder: string,
  opts: { cause?: unknown; free?: number | null } = {},
): StartupError {
  const free = opts.free === undefined ? freeMegabytes(folder) : opts.free;
  switch (problem) {
    case 'full':
      return new StartupError(
        `The disk holding ${folder} is full${free === null ? '' : ` (${free} MB free)`}.`,
        `Free at least ${REQUIRED_FREE_MB} MB on that disk, or set FIELDBOOK_DATA_DIR to a folder on a disk with that much space, and start Fieldbook again.`,
        { cause: opts.cause },
      );
    case 'read-only':
      return new StartupError(
        `The disk holding ${folder} is read-only: Fieldbook keeps its database there and must write to it.`,
        `Mount that disk writable, or set FIELDBOOK_DATA_DIR to a folder on a writable disk with at least ${REQUIRED_FREE_MB} MB free, and start Fieldbook again.`,
        { cause: opts.cause },
      );
    case 'not-permitted':
      return new StartupError(
        `Fieldbook may not write to ${folder}.`,
        `Make ${folder} readable and writable by the user Fieldbook runs as (and by the postgres user when Fieldbook runs as root), or set FIELDBOOK_DATA_DIR to a folder it may write to.`,
        { cause: opts.cause },
      );
  }
}

/**
 * What stops this process writing in `folder`, asked of the nearest folder that exists: a
 * recursive mkdir on a read-only disk fails with ENOENT, which says nothing of the reason.
 */
export function diskProblemAt(folder: string): DiskProblem | null {
  let at = folder;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    accessSync(at, constants.W_OK);
    return null;
  } catch (err) {
    return diskProblemOf(err);
  }
}

/**
 * The start failure a file-system error means, when it is the disk's doing; null otherwise.
 * `folder` is where the error happened, when the error itself does not name it.
 */
export function diskStartupErrorFrom(err: unknown, folder?: string): StartupError | null {
  if (err instanceof StartupError) return err;
  const path = (err as { path?: unknown } | null)?.path;
  const where = folder ?? (typeof path === 'string' ? path : undefined);
  if (!where) return null;
  const problem = diskProblemOf(err) ?? diskProblemAt(where);
  return problem ? diskStartupError(problem, where, { cause: err }) : null;
}

/** Makes the data folder, or fails saying why the disk would not have it. */
export function ensureDataFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (err) {
    throw diskStartupErrorFrom(err, folder) ?? err;
  }
}
