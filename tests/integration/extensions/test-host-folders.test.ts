import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestHost, type TestHost } from '../../../extensions-sdk/src/testing/index.ts';
import escapeArtist from './fixtures/sandboxed/escape-artist/server.ts';

const fixtures = join(import.meta.dirname, 'fixtures', 'sandboxed');
const hosts: TestHost[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'fieldbook-test-host-folders-'));

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  rmSync(scratch, { recursive: true, force: true });
});

async function started(options: Parameters<typeof createTestHost>[0]): Promise<TestHost> {
  const host = await createTestHost(options);
  hosts.push(host);
  await host.signUpAdmin();
  return host;
}

const GLOBALS = 'globals';

describe('the testing kit given a plugin package folder', () => {
  it('runs the plugin sandboxed, as Fieldbook runs an installed plugin, where a definition runs in the test’s process', async () => {
    // The same plugin both ways: what its code finds among its globals tells where it runs.
    const sandboxed = await started({
      plugins: [],
      pluginFolders: [pathToFileURL(join(fixtures, 'escape-artist') + '/')],
    });
    await sandboxed.install('escape-artist');
    expect(await sandboxed.runAction('escape-artist', GLOBALS, {})).toEqual({ summary: '[]' });
    const inProcess = await started({ plugins: [escapeArtist] });
    await inProcess.install('escape-artist');
    expect(JSON.parse((await inProcess.runAction('escape-artist', GLOBALS, {}))!.summary!)).toEqual(
      expect.arrayContaining(['process', 'fetch']),
    );

    // Listed with the folder it came from, as Settings -> Extensions shows it.
    const listed = await sandboxed.gql<{
      plugins: Array<{ id: string; origin: { kind: string; packageName: string | null; path: string | null } }>;
    }>('{ plugins { id origin { kind packageName path } } }');
    expect(listed.data?.plugins).toEqual([
      {
        id: 'escape-artist',
        origin: { kind: 'BUNDLED', packageName: 'escape-artist', path: join(fixtures, 'escape-artist') },
      },
    ]);
  });

  it('takes the folder as a path too, and refuses to start without a plugin that failed to load, saying why', async () => {
    await expect(createTestHost({ plugins: [], pluginFolders: [join(fixtures, 'file-reader')] })).rejects.toThrow(
      /file-reader.*failed to load: .*cannot use node:fs/s,
    );
    await expect(createTestHost({ plugins: [], pluginFolders: [join(scratch, 'nothing-here')] })).rejects.toThrow(
      /nothing-here is not a plugin package: it has no package\.json\./,
    );
    const notAPlugin = join(scratch, 'not-a-plugin');
    mkdirSync(notAPlugin);
    writeFileSync(join(notAPlugin, 'package.json'), JSON.stringify({ name: 'not-a-plugin', type: 'module' }));
    await expect(createTestHost({ plugins: [], pluginFolders: [notAPlugin] })).rejects.toThrow(
      /not-a-plugin is not a Fieldbook plugin: its package\.json has no "fieldbook"/,
    );
  });
});
