import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePinnedIntegrity, tarballFiles } from '../../../core/src/extensions/catalog/integrity.ts';
import { createWorkspaceWithAdmin, gqlAs } from '../../support/factories.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../..');
// Inside the repository, so the packages' `@fieldbook/extensions-sdk` resolves as an installed SDK would.
const work = join(root, 'tests', '.artifacts', `npm-plugins-${randomBytes(4).toString('hex')}`);
const project = join(work, 'project');
const npmCache = join(work, 'npm-cache');

const plugin = (id: string, body = '') => `import { definePlugin } from '@fieldbook/extensions-sdk/server';
export default definePlugin({ id: '${id}', name: '${id}', version: '1.0.0', sdk: '^1', permissions: []${body} });
`;
/** A definition written out by hand, so the host (not definePlugin at import) is the one to find it wrong. */
const rawDefinition = (manifest: object) =>
  `export default ${JSON.stringify({ manifest, server: {}, settings: {}, config: {} })};\n`;

/** npm packages that are plugins, each failing in its own way (or not at all). */
const packages: Record<string, { server: string; exports?: object; files?: string[] }> = {
  // Its exports leave out ./package.json, which used to stop Fieldbook from finding it at all.
  'fieldbook-plugin-no-pkg-export': { server: plugin('no-pkg-export'), exports: { '.': './server.js' } },
  'fieldbook-plugin-tampered': { server: plugin('tampered') },
  'fieldbook-plugin-pinned-wrong': { server: plugin('pinned-wrong') },
  'fieldbook-plugin-bad-manifest': {
    server: rawDefinition({ id: 'bad-manifest', name: 'Bad manifest', version: 'one', sdk: '^1', permissions: [] }),
  },
  'fieldbook-plugin-old-sdk': {
    server: rawDefinition({ id: 'old-sdk', name: 'Old SDK', version: '1.0.0', sdk: '^0.1', permissions: [] }),
  },
  'fieldbook-plugin-bad-bundle': {
    server: `import missing from 'fieldbook-no-such-module';\n${plugin('bad-bundle')}export const x = missing;\n`,
  },
  // Its package ships server.js alone; a file put beside it later is not the package's to bundle.
  'fieldbook-plugin-unshipped': {
    server: `import extra from './extra.txt';\n${plugin('unshipped')}export const x = extra;\n`,
    files: ['server.js'],
  },
  'fieldbook-plugin-failing-setup': {
    server: plugin('failing-setup', `, server: { setup() { throw new Error('cannot reach its queue'); } }`),
  },
};

async function npm(args: string[], cwd: string): Promise<void> {
  await run(
    'npm',
    [...args, '--cache', npmCache, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'],
    { cwd },
  );
}

describe('plugin packages that fail to load', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let lockIntegrity: (name: string) => string;

  beforeAll(async () => {
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-fieldbook', private: true }));
    const tarballs: string[] = [];
    await Promise.all(
      Object.entries(packages).map(async ([name, { server, exports, files }]) => {
        const dir = join(work, 'src', name);
        mkdirSync(dir, { recursive: true });
        writeFileSync(
          join(dir, 'package.json'),
          JSON.stringify({
            name,
            version: '1.2.3',
            type: 'module',
            ...(exports ? { exports } : {}),
            ...(files ? { files } : {}),
            fieldbook: { server: './server.js' },
          }),
        );
        writeFileSync(join(dir, 'server.js'), server);
        await npm(['pack', '--pack-destination', work], dir);
        tarballs.push(join(work, `${name}-1.2.3.tgz`));
      }),
    );
    // As an operator would: npm install records each tarball's integrity in package-lock.json.
    await npm(['install', ...tarballs], project);
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { integrity: string }>;
    };
    lockIntegrity = (name) => lock.packages[`node_modules/${name}`]!.integrity;
    // Changed after install: one line added to its server code.
    appendFileSync(
      join(project, 'node_modules', 'fieldbook-plugin-tampered', 'server.js'),
      'globalThis.stolen = true;\n',
    );
    writeFileSync(join(project, 'node_modules', 'fieldbook-plugin-unshipped', 'extra.txt'), 'server-only words');

    mail = await startMailServer();
    const emptyDir = join(work, 'bundled');
    mkdirSync(emptyDir);
    server = await startTestServer({
      smtpUrl: mail.url,
      projectRoot: project,
      plugins: {
        packages: [...Object.keys(packages), 'fieldbook-plugin-never-installed'],
        dir: emptyDir,
        maximumExtensions: null,
        env: {},
        isolation: { sandbox: true, trusted: [] },
        integrity: {
          // A right pin loads; a wrong one fails even though the lockfile agrees with the files.
          pinned: `fieldbook-plugin-no-pkg-export=${lockIntegrity('fieldbook-plugin-no-pkg-export')}, fieldbook-plugin-pinned-wrong=sha512-${Buffer.alloc(64, 7).toString('base64')}`,
          npmCache,
        },
      },
    });
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await mail?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('lists each failed package with its reason on Settings -> Extensions, and the rest start', async () => {
    const ws = await createWorkspaceWithAdmin(server, mail);
    const gql = gqlAs(server, ws.admin.accessToken, ws.id);
    const failures = await gql<{
      pluginLoadFailures: Array<{
        name: string;
        problem: string;
        origin: { kind: string; packageName: string | null; packageVersion: string | null; path: string | null };
      }>;
    }>('{ pluginLoadFailures { name problem origin { kind packageName packageVersion path } } }');
    expect(failures.errors).toBeUndefined();
    const byName = new Map(failures.data!.pluginLoadFailures.map((f) => [f.name, f]));
    const problem = (name: string) => byName.get(name)?.problem;

    expect(problem('fieldbook-plugin-never-installed')).toBe(
      `The npm package fieldbook-plugin-never-installed is not installed: run npm install fieldbook-plugin-never-installed in ${project}, or remove it from FIELDBOOK_PLUGINS.`,
    );
    expect(byName.get('fieldbook-plugin-never-installed')!.origin).toEqual({
      kind: 'NPM',
      packageName: 'fieldbook-plugin-never-installed',
      packageVersion: null,
      path: null,
    });
    expect(problem('fieldbook-plugin-tampered')).toMatch(
      /^Integrity mismatch: server\.js of fieldbook-plugin-tampered differs from its package \(sha512-/,
    );
    expect(problem('fieldbook-plugin-pinned-wrong')).toMatch(
      /^Integrity mismatch: package-lock\.json records sha512-.* FIELDBOOK_PLUGIN_INTEGRITY pins sha512-/,
    );
    expect(problem('Bad manifest')).toMatch(
      /^Invalid plugin manifest:\nversion: The version must be a semantic version/,
    );
    expect(problem('Old SDK')).toBe('The plugin old-sdk needs SDK ^0.1; this Fieldbook has SDK 1.0.0.');
    expect(problem('fieldbook-plugin-bad-bundle')).toMatch(/fieldbook-no-such-module/);
    expect(byName.get('fieldbook-plugin-tampered')!.origin).toEqual({
      kind: 'NPM',
      packageName: 'fieldbook-plugin-tampered',
      packageVersion: '1.2.3',
      path: join(project, 'node_modules', 'fieldbook-plugin-tampered'),
    });
    expect(problem('fieldbook-plugin-unshipped')).toMatch(
      /^Its server code cannot be bundled:\n(server\.js:\d+:\d+: )?extra\.txt is not one of the files the plugin's package ships/,
    );
    expect(byName.size).toBe(7);

    // The tampered code never ran: it is checked before it is bundled or imported.
    expect((globalThis as { stolen?: boolean }).stolen).toBeUndefined();

    const listed = await gql<{
      plugins: Array<{
        id: string;
        state: string;
        problem: string | null;
        version: string;
        origin: { kind: string; packageName: string; packageVersion: string; path: string; integrity: string };
      }>;
    }>('{ plugins { id state problem version origin { kind packageName packageVersion path integrity } } }');
    expect(listed.data!.plugins.map((p) => [p.id, p.state, p.problem])).toEqual([
      ['failing-setup', 'FAILED', 'Its setup failed: cannot reach its queue'],
      ['no-pkg-export', 'READY', null],
    ]);
    expect(listed.data!.plugins[1]!.origin).toEqual({
      kind: 'NPM',
      packageName: 'fieldbook-plugin-no-pkg-export',
      packageVersion: '1.2.3',
      path: join(project, 'node_modules', 'fieldbook-plugin-no-pkg-export'),
      integrity: lockIntegrity('fieldbook-plugin-no-pkg-export'),
    });
    expect((await fetch(`${server.url}/ping`)).status).toBe(200);
  });

  it('shows the failures to workspace admins only', async () => {
    const ws = await createWorkspaceWithAdmin(server, mail);
    const anonymous = await server.gql('{ pluginLoadFailures { name } }');
    expect(anonymous.errors?.[0]?.extensions?.errorCode).toBe('UNAUTHENTICATED');
    expect(
      (await gqlAs(server, ws.admin.accessToken, ws.id)('{ pluginLoadFailures { name } }')).errors,
    ).toBeUndefined();
  });
});

describe('package integrity helpers', () => {
  it('read every file of a tarball, long paths included, and the pinned integrities', async () => {
    const dir = join(work, 'long');
    const deep = join('web', 'dist', 'static', 'js', 'async', 'a'.repeat(90));
    mkdirSync(join(dir, deep), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'long-paths', version: '1.0.0' }));
    writeFileSync(join(dir, deep, 'chunk.js'), 'export {};\n');
    await npm(['pack', '--pack-destination', dir], dir);
    const files = tarballFiles(readFileSync(join(dir, 'long-paths-1.0.0.tgz')));
    expect([...files.keys()].sort()).toEqual(['package.json', join(deep, 'chunk.js')].sort());
    expect(files.get(join(deep, 'chunk.js'))!.toString()).toBe('export {};\n');
    expect([...parsePinnedIntegrity(' a=sha512-AB==, @scope/b=sha256-CD= ,broken').entries()]).toEqual([
      ['a', 'sha512-AB=='],
      ['@scope/b', 'sha256-CD='],
    ]);
    rmSync(work, { recursive: true, force: true });
  });
});
