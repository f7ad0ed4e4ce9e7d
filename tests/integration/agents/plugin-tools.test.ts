import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSandboxedPlugin, type SandboxedPlugin } from '../../../core/src/extensions/sandbox/index.ts';
import { createLogger } from '../../../core/src/logger.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { contentFixture, createProject, failure, ok, type ContentFixture } from '../research/content-support.ts';
import { RUN_TOOL, startAgentsServer, type ToolAnswer } from './support.ts';

let lister: SandboxedPlugin;
let server: TestServer;
let mail: TestMailServer;
let f: ContentFixture;
let open: string;
let restricted: string;

beforeAll(async () => {
  lister = await loadSandboxedPlugin({
    packageDir: join(import.meta.dirname, 'fixtures', 'project-lister'),
    serverEntry: './server.ts',
    logger: createLogger('silent'),
  });
  ({ server, mail } = await startAgentsServer({}, { plugins: [lister.definition] }));
  f = await contentFixture(server, mail, ['CONTRIBUTOR', 'VIEWER']);
  open = (await createProject(f.admin, 'Open research')).id;
  restricted = (await createProject(f.admin, 'Board only')).id;
  ok(
    await f.admin(`mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }`, {
      id: restricted,
      m: { groups: { markup: 'none' }, users: {} },
    }),
  );
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
  lister?.isolate.dispose();
});

describe('plugin tools through the SDK', () => {
  it('lists a sandboxed plugin’s tools, prefixed with its id, with the input schema worked out in the sandbox', async () => {
    const tools = ok(
      await f.viewer.gql<{
        agentTools: Array<{
          name: string;
          access: string;
          needsConfirmation: boolean;
          inputSchema: { properties: Record<string, unknown>; required?: string[] };
        }>;
      }>(`{ agentTools { name access needsConfirmation inputSchema } }`),
    ).agentTools;
    const repeat = tools.find((t) => t.name === 'project-lister_repeat');
    // A write tool asks the person first, whether or not the plugin said so.
    expect(repeat).toMatchObject({
      access: 'write',
      needsConfirmation: true,
      inputSchema: { required: ['word', 'times'] },
    });
    expect(repeat!.inputSchema.properties.times).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
    expect(tools.find((t) => t.name === 'project-lister_project_titles')).toMatchObject({ access: 'read' });
  });

  it('runs a tool only where the plugin is installed, as the person, within their access', async () => {
    const before = failure(await f.contributor.gql(RUN_TOOL, { name: 'project-lister_project_titles', input: {} }));
    expect(before).toMatchObject({
      message: 'Project lister is not installed in this workspace.',
      extensions: { errorCode: 'INVALID_OPERATION' },
    });
    ok(await f.admin(`mutation { installPlugin(pluginId: "project-lister", settings: []) { id } }`));

    const admin = ok(
      await f.admin<ToolAnswer>(RUN_TOOL, { name: 'project-lister_project_titles', input: { prefix: '- ' } }),
    ).runAgentTool;
    expect(admin.text.split('\n').sort()).toEqual(['- Board only', '- Open research']);
    const mine = ok(
      await f.contributor.gql<ToolAnswer>(RUN_TOOL, { name: 'project-lister_project_titles', input: {} }),
    ).runAgentTool;
    expect(mine.text).toBe('Open research');
    expect(mine.items).toEqual([{ type: 'PROJECT', id: open, title: 'Open research', url: `/projects/${open}` }]);
    expect(mine.data).toEqual({ by: f.contributor.user.id });
  });

  it('checks input in the sandbox, naming the field, and keeps viewers from write tools', async () => {
    const bad = failure(
      await f.contributor.gql(RUN_TOOL, { name: 'project-lister_repeat', input: { word: 'go', times: 9 } }),
    );
    expect(bad.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'times' });
    expect(
      ok(
        await f.contributor.gql<ToolAnswer>(RUN_TOOL, {
          name: 'project-lister_repeat',
          input: { word: 'go', times: 3 },
        }),
      ).runAgentTool.text,
    ).toBe('go go go');
    expect(
      failure(await f.viewer.gql(RUN_TOOL, { name: 'project-lister_repeat', input: { word: 'go', times: 1 } }))
        .extensions?.errorCode,
    ).toBe('FORBIDDEN');
  });

  it('stops a tool that says it reads at the first change it tries, and fails the call saying why', async () => {
    ok(
      await f.admin(
        `mutation($p: ID!) { setProjectPluginEnabled(projectId: $p, pluginId: "project-lister", enabled: true) { enabled } }`,
        {
          p: open,
        },
      ),
    );
    const refused = failure(
      await f.contributor.gql(RUN_TOOL, { name: 'project-lister_tidy', input: { projectId: open } }),
    );
    expect(refused.extensions?.errorCode).toBe('FORBIDDEN');
    expect(refused.message).toBe(
      'Project lister’s tool tidy says it only reads, so it may not create notes; it was stopped there.',
    );
    expect(await server.fieldbook.db.owner('notes').where({ title: 'Made by a read tool' })).toHaveLength(0);
  });
});
