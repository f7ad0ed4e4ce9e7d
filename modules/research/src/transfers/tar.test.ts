import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractTar, headerChecksum, parseTarHeader, tarHeader, tarSize, writeTar, TarFormatError } from './tar.ts';

const dirs: string[] = [];
const scratch = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tar-test-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('tar headers', () => {
  it('round-trips a name and size, with a checksum that matches', () => {
    const header = tarHeader('Notes.jsonl', 1234);
    expect(header.length).toBe(512);
    expect(header.subarray(257, 262).toString()).toBe('ustar');
    expect(parseTarHeader(header)).toEqual({ name: 'Notes.jsonl', size: 1234, regular: true });
    expect(parseInt(header.subarray(148, 154).toString(), 8)).toBe(headerChecksum(header));
  });

  it('rejects a damaged header', () => {
    const header = tarHeader('Tags.jsonl', 10);
    header[0] = 0x58;
    expect(() => parseTarHeader(header)).toThrow(TarFormatError);
    expect(() => parseTarHeader(Buffer.alloc(512, 7))).toThrow(/not a tar archive/);
  });

  it('refuses names longer than a header holds', () => {
    expect(() => tarHeader('x'.repeat(101), 1)).toThrow(/too long/);
  });
});

describe('writing and extracting archives', () => {
  it('extracts exactly what was written, padded to 512-byte blocks', async () => {
    const dir = await scratch();
    await writeFile(join(dir, 'a.jsonl'), '{"id":1}\n{"id":2}\n');
    await writeFile(join(dir, 'empty.jsonl'), '');
    const big = 'x'.repeat(200_000);
    await writeFile(join(dir, 'big.jsonl'), big);
    const archive = join(dir, 'out.tar');
    const size = await writeTar(archive, [
      { name: 'A.jsonl', path: join(dir, 'a.jsonl') },
      { name: 'Empty.jsonl', path: join(dir, 'empty.jsonl') },
      { name: 'Big.jsonl', path: join(dir, 'big.jsonl') },
    ]);
    expect(size).toBe(tarSize([18, 0, 200_000]));
    expect(size % 512).toBe(0);

    const out = await scratch();
    const names = await extractTar(archive, out, (n) => n !== 'Empty.jsonl');
    expect(names).toEqual(['A.jsonl', 'Big.jsonl']);
    expect((await readdir(out)).sort()).toEqual(['A.jsonl', 'Big.jsonl']);
    expect(await readFile(join(out, 'A.jsonl'), 'utf8')).toBe('{"id":1}\n{"id":2}\n');
    expect(await readFile(join(out, 'Big.jsonl'), 'utf8')).toBe(big);
  });

  it('fails on an archive cut short and on an empty file', async () => {
    const dir = await scratch();
    await writeFile(join(dir, 'a'), 'y'.repeat(3000));
    const archive = join(dir, 'out.tar');
    await writeTar(archive, [{ name: 'A.jsonl', path: join(dir, 'a') }]);
    const whole = await readFile(archive);
    await writeFile(archive, whole.subarray(0, 1024));
    await expect(extractTar(archive, await scratch(), () => true)).rejects.toThrow(/cut short/);
    await writeFile(archive, '');
    await expect(extractTar(archive, await scratch(), () => true)).rejects.toThrow(/empty or is not a tar archive/);
  });
});
