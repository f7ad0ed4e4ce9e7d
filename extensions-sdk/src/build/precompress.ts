import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { RsbuildPlugin } from '@rsbuild/core';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; images and fonts are compressed already, source maps stay as they are. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.json', '.svg', '.txt']);
/** Below this, a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/** Every file under `dir`, skipping dotfiles (the build stamp). */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

export interface PrecompressResult {
  /** Files given a `.br` and a `.gz` copy. */
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

/**
 * Writes `file.br` (brotli, best quality) and `file.gz` (gzip, best level) beside every text file
 * of a build, so the server sends them as they are instead of compressing each response. A copy
 * that would not be smaller is not written.
 */
export async function precompressDir(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const files = (await filesUnder(dir)).filter((f) => COMPRESSIBLE.has(extname(f)));
  await Promise.all(
    files.map(async (file) => {
      const source = await readFile(file);
      if (source.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(source, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        }),
        gzipAsync(source, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length >= source.length && gz.length >= source.length) return;
      if (br.length < source.length) await writeFile(`${file}.br`, br);
      if (gz.length < source.length) await writeFile(`${file}.gz`, gz);
      result.files += 1;
      result.bytes += source.length;
      result.brotliBytes += Math.min(br.length, source.length);
      result.gzipBytes += Math.min(gz.length, source.length);
    }),
  );
  return result;
}

/**
 * An Rsbuild plugin that precompresses a production build's output (see {@link precompressDir}).
 * Fieldbook serves the `.br` or `.gz` copy to browsers that accept it.
 */
export function pluginPrecompress(): RsbuildPlugin {
  return {
    name: 'fieldbook:precompress',
    setup(api) {
      // Every build, watch rebuilds included: a stale index.html.br would hide a new release.
      api.onAfterBuild(async ({ environments }) => {
        for (const environment of Object.values(environments)) await precompressDir(environment.distPath);
      });
    },
  };
}
