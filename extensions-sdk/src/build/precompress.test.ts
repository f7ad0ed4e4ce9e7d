import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('precompressing a web build', () => {
  it('writes a smaller brotli and gzip copy beside each text file, and leaves the rest alone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'fieldbook-precompress-'));
    mkdirSync(join(dir, 'static', 'js', 'async'), { recursive: true });
    const script = `export const notes = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `Interview note ${i}`))};`;
    writeFileSync(join(dir, 'static', 'js', 'async', 'notes.0123abcd.js'), script);
    writeFileSync(join(dir, 'index.html'), `<!doctype html>${'<meta name="x">'.repeat(100)}`);
    writeFileSync(join(dir, 'static', 'js', 'tiny.js'), 'a()');
    writeFileSync(join(dir, 'static', 'js', 'async', 'notes.0123abcd.js.map'), script);
    writeFileSync(join(dir, 'logo.png'), Buffer.alloc(4096, 1));
    writeFileSync(join(dir, '.build-stamp'), 'x'.repeat(4096));

    const result = await precompressDir(dir);

    const js = join(dir, 'static', 'js', 'async', 'notes.0123abcd.js');
    expect(brotliDecompressSync(readFileSync(`${js}.br`)).toString()).toBe(script);
    expect(gunzipSync(readFileSync(`${js}.gz`)).toString()).toBe(script);
    expect(readFileSync(`${js}.br`).length).toBeLessThan(script.length / 3);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    // Too small to gain, already compressed, only for developer tools, or bookkeeping: no copies.
    for (const skipped of ['static/js/tiny.js', 'static/js/async/notes.0123abcd.js.map', 'logo.png', '.build-stamp']) {
      expect(existsSync(join(dir, `${skipped}.br`)), skipped).toBe(false);
      expect(existsSync(join(dir, `${skipped}.gz`)), skipped).toBe(false);
    }
    expect(result.files).toBe(2);
    expect(result.brotliBytes).toBeLessThan(result.gzipBytes);
  });
});
