import { describe, expect, it } from 'vitest';
import { describeStartFailure } from '../bin/start-failure.ts';
import { diskProblemOf, diskStartupError, diskStartupErrorFrom, REQUIRED_FREE_MB } from './startup-error.ts';

const errno = (code: string, path: string, syscall = 'open') =>
  Object.assign(new Error(`${code}: failed, ${syscall} '${path}'`), { code, path, syscall });

describe('the disk problem behind a failed start', () => {
  it('is read from the error number Node gives', () => {
    expect(diskProblemOf(errno('ENOSPC', '/d/x'))).toBe('full');
    expect(diskProblemOf(errno('EDQUOT', '/d/x'))).toBe('full');
    expect(diskProblemOf(errno('EROFS', '/d/x'))).toBe('read-only');
    expect(diskProblemOf(errno('EACCES', '/d/x'))).toBe('not-permitted');
    expect(diskProblemOf(errno('ECONNREFUSED', '/d/x'))).toBeNull();
  });

  it('is read from what PostgreSQL and initdb printed', () => {
    expect(
      diskProblemOf(undefined, ['FATAL:  could not write to file "pg_wal/xlogtemp.1604": No space left on device']),
    ).toBe('full');
    expect(
      diskProblemOf(undefined, ['FATAL:  could not create lock file "postmaster.pid": Read-only file system']),
    ).toBe('read-only');
    expect(diskProblemOf(new Error('Postgres init script failed. ERROR OUTPUT: … Disk quota exceeded'))).toBe('full');
    expect(diskProblemOf(undefined, ['FATAL:  could not bind IPv4 address "127.0.0.1": Address already in use'])).toBe(
      null,
    );
  });

  it('calls a full disk full even when a permission error is printed beside it', () => {
    expect(diskProblemOf(undefined, ['Permission denied', 'No space left on device'])).toBe('full');
  });
});

describe('what a failed start on a bad disk prints', () => {
  it('names the folder, the space free and the space needed when the disk is full', () => {
    const err = diskStartupError('full', '/srv/fieldbook/pg', { free: 3 });
    expect(err.message).toBe('The disk holding /srv/fieldbook/pg is full (3 MB free).');
    expect(err.whatToDo).toContain(`Free at least ${REQUIRED_FREE_MB} MB on that disk`);
    expect(err.whatToDo).toContain('FIELDBOOK_DATA_DIR');
  });

  it('says a read-only disk is read-only, not that the folder should be made readable', () => {
    const err = diskStartupError('read-only', '/srv/fieldbook');
    expect(err.message).toContain('The disk holding /srv/fieldbook is read-only');
    expect(err.whatToDo).toContain('Mount that disk writable');
    expect(err.whatToDo).not.toContain('readable');
  });

  it('tells a full disk met outside PostgreSQL (the generated secret, a plugin bundle) as one', () => {
    const printed = describeStartFailure(errno('ENOSPC', '/srv/fieldbook/secret.key'), { databaseUrlSet: false });
    expect(printed).toMatch(/^Fieldbook could not start: The disk holding \/srv\/fieldbook\/secret\.key is full/);
    expect(printed).not.toContain('ENOSPC');
  });

  it('leaves errors that are not the disk’s to the other explanations', () => {
    expect(diskStartupErrorFrom(new Error('something else'))).toBeNull();
    expect(
      describeStartFailure(Object.assign(new Error('taken'), { code: 'EADDRINUSE' }), {
        port: 3000,
        databaseUrlSet: false,
      }),
    ).toContain('port 3000 is already in use');
  });
});
