import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Export archives are plain POSIX (ustar) tar files: every system can open one without extra
 * software, and writing or reading one needs no library. Only flat archives of regular files are
 * written or read; anything else in an uploaded archive is skipped.
 */
const BLOCK = 512;
const CHUNK = 64 * 1024;

export class TarFormatError extends Error {}

function writeString(buf: Buffer, offset: number, length: number, value: string): void {
  buf.write(value, offset, length, 'utf8');
}

function writeOctal(buf: Buffer, offset: number, length: number, value: number): void {
  writeString(buf, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

/** The checksum of a header: the byte sum with the checksum field itself read as spaces. */
export function headerChecksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum;
}

/** The 512-byte header of one regular file. */
export function tarHeader(name: string, size: number, mtime: Date = new Date(0)): Buffer {
  if (Buffer.byteLength(name) > 100) throw new TarFormatError(`The file name ${name} is too long for an archive.`);
  const header = Buffer.alloc(BLOCK, 0);
  writeString(header, 0, 100, name);
  writeOctal(header, 100, 8, 0o644);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, size);
  writeOctal(header, 136, 12, Math.floor(mtime.getTime() / 1000));
  header[156] = 0x30; // '0': a regular file
  writeString(header, 257, 6, 'ustar\0');
  writeString(header, 263, 2, '00');
  writeString(header, 265, 32, 'fieldbook');
  writeString(header, 297, 32, 'fieldbook');
  const sum = headerChecksum(header);
  writeString(header, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return header;
}

const isZeroBlock = (block: Buffer): boolean => block.every((b) => b === 0);

function readString(buf: Buffer, offset: number, length: number): string {
  const raw = buf.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

const NOT_TAR = 'The archive is damaged or is not a tar archive (a header checksum does not match).';

function readOctal(buf: Buffer, offset: number, length: number): number {
  const text = readString(buf, offset, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new TarFormatError(NOT_TAR);
  return text ? parseInt(text, 8) : 0;
}

export interface TarEntryHeader {
  name: string;
  size: number;
  /** Regular files only are extracted. */
  regular: boolean;
}

/** Reads one header; throws when it is damaged. */
export function parseTarHeader(header: Buffer): TarEntryHeader {
  const stored = readOctal(header, 148, 8);
  if (stored !== headerChecksum(header)) throw new TarFormatError(NOT_TAR);
  const prefix = readString(header, 345, 155);
  const base = readString(header, 0, 100);
  const type = header[156]!;
  return {
    name: prefix ? `${prefix}/${base}` : base,
    size: readOctal(header, 124, 12),
    regular: type === 0x30 || type === 0,
  };
}

const padding = (size: number): number => (BLOCK - (size % BLOCK)) % BLOCK;

/** The size of an archive holding files of these sizes. */
export const tarSize = (sizes: readonly number[]): number =>
  sizes.reduce((sum, s) => sum + BLOCK + s + padding(s), 0) + 2 * BLOCK;

/**
 * Writes `files` (name in the archive and path on disk) into one archive, copying each in
 * chunks, so no file is ever held in memory whole. Answers the archive's size.
 */
export async function writeTar(
  archivePath: string,
  files: ReadonlyArray<{ name: string; path: string }>,
): Promise<number> {
  const out = await open(archivePath, 'w');
  let written = 0;
  const put = async (buf: Buffer) => {
    await out.write(buf, 0, buf.length);
    written += buf.length;
  };
  try {
    for (const file of files) {
      const { size, mtime } = await stat(file.path);
      await put(tarHeader(file.name, size, mtime));
      const input = await open(file.path, 'r');
      try {
        const chunk = Buffer.alloc(CHUNK);
        let left = size;
        while (left > 0) {
          const { bytesRead } = await input.read(chunk, 0, Math.min(CHUNK, left));
          if (!bytesRead) throw new TarFormatError(`${file.name} changed while it was archived.`);
          await put(chunk.subarray(0, bytesRead));
          left -= bytesRead;
        }
      } finally {
        await input.close();
      }
      await put(Buffer.alloc(padding(size), 0));
    }
    await put(Buffer.alloc(2 * BLOCK, 0));
  } finally {
    await out.close();
  }
  return written;
}

/**
 * Extracts the regular files of an archive whose names `accept` allows into `dir` (flat), in
 * chunks. Answers the names extracted. Throws TarFormatError on a damaged archive.
 */
export async function extractTar(
  archivePath: string,
  dir: string,
  accept: (name: string) => boolean,
): Promise<string[]> {
  const input = await open(archivePath, 'r');
  const names: string[] = [];
  try {
    const { size: total } = await input.stat();
    let offset = 0;
    const header = Buffer.alloc(BLOCK);
    while (offset + BLOCK <= total) {
      await input.read(header, 0, BLOCK, offset);
      if (isZeroBlock(header)) return names;
      const entry = parseTarHeader(header);
      offset += BLOCK;
      if (offset + entry.size > total)
        throw new TarFormatError(`The archive is cut short: ${entry.name} is incomplete.`);
      if (entry.regular && accept(entry.name)) {
        const out = await open(join(dir, entry.name), 'w');
        try {
          const chunk = Buffer.alloc(CHUNK);
          let left = entry.size;
          let at = offset;
          while (left > 0) {
            const { bytesRead } = await input.read(chunk, 0, Math.min(CHUNK, left), at);
            await out.write(chunk, 0, bytesRead);
            left -= bytesRead;
            at += bytesRead;
          }
        } finally {
          await out.close();
        }
        names.push(entry.name);
      }
      offset += entry.size + padding(entry.size);
    }
    if (offset === 0) throw new TarFormatError('The archive is empty or is not a tar archive.');
    return names;
  } finally {
    await input.close();
  }
}
