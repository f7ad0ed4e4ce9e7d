import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  definePlugin,
  PluginPermissionError,
  type InstallationContext,
} from '../../../extensions-sdk/src/server/index.ts';
import research from '../../../modules/research/src/index.ts';
import type { ExtensionsServices } from '../../../core/src/extensions/module.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { contentFixture, failure, ok, type ContentFixture } from '../research/content-support.ts';

/** Version 2 of a plugin whose version 1 asked to see projects only. */
const grower = definePlugin({
  id: 'grower',
  name: 'Grower',
  version: '2.0.0',
  sdk: '^1',
  permissions: ['projects:read', 'notes:write', 'egress:api.grower.example'],
});

const PLUGIN = '{ plugins { id installation { pendingPermissions { name description } } } }';
const APPROVE =
  'mutation { approvePluginPermissions(pluginId: "grower") { id installation { pendingPermissions { name } } } }';

describe('a plugin version that asks for more permissions', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let services: ExtensionsServices;
  const installation = () =>
    services.host.inWorkspace(f.ws.id, (trx) => trx('plugin_installations').where({ plugin_id: 'grower' }).first());
  const context = async () =>
    services.host.installationContext(
      services.host.catalog.get('grower')!,
      await installation(),
    ) as InstallationContext<'notes:write' | 'projects:read'>;
  const pending = async () =>
    ok(
      await f.admin<{ plugins: Array<{ id: string; installation: { pendingPermissions: unknown[] } | null }> }>(PLUGIN),
    ).plugins.find((p) => p.id === 'grower')!.installation!.pendingPermissions;

  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer(
      { smtpUrl: mail.url, plugins: { packages: [], dir: '', maximumExtensions: null, env: {} } },
      { modules: [research], plugins: [grower], discoverPlugins: false },
    );
    services = server.fieldbook.services.extensions as ExtensionsServices;
    f = await contentFixture(server, mail, ['MANAGER']);
    ok(await f.admin('mutation { installPlugin(pluginId: "grower") { id } }'));
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('gets what the admin approved when installing it', async () => {
    expect((await installation()).approved_permissions).toEqual([
      'projects:read',
      'notes:write',
      'egress:api.grower.example',
    ]);
    expect(await pending()).toEqual([]);
  });

  it('runs with the approved set until an admin approves the rest, which is audit-logged', async () => {
    // As when version 1 was installed: only projects:read approved.
    await server.fieldbook.db
      .owner('plugin_installations')
      .where({ plugin_id: 'grower' })
      .update({ approved_permissions: ['projects:read'] });

    const before = await context();
    expect(() => before.projects).not.toThrow();
    expect(() => before.notes).toThrow(PluginPermissionError);
    expect(() => before.notes).toThrow(
      'The plugin grower asks for the permission notes:write, which a workspace admin has not approved yet.',
    );
    await expect(before.http.fetch('https://api.grower.example/v1')).rejects.toThrow(
      'The plugin grower asks for the permission egress:api.grower.example, which a workspace admin has not approved yet.',
    );
    expect(await pending()).toEqual([
      { name: 'notes:write', description: 'Create notes in the projects it is enabled on' },
      { name: 'egress:api.grower.example', description: 'Call api.grower.example' },
    ]);

    // Only workspace admins approve.
    expect(failure(await f.manager.gql(APPROVE)).extensions?.errorCode).toBe('FORBIDDEN');
    expect(() => before.notes).toThrow(PluginPermissionError);

    const approved = ok(
      await f.admin<{ approvePluginPermissions: { installation: { pendingPermissions: unknown[] } } }>(APPROVE),
    );
    expect(approved.approvePluginPermissions.installation.pendingPermissions).toEqual([]);
    expect(Object.keys(await context())).toContain('notes');

    const audit = await server.fieldbook.db
      .owner('audit_log')
      .where({ workspace_id: f.ws.id, subject_type: 'plugin', subject_id: 'grower' })
      .orderBy('created_at', 'desc')
      .first();
    expect(audit.kind).toBe('INTEGRATION_CHANGE');
    expect(audit.metadata).toEqual({
      action: 'permissions approved',
      permissions: ['notes:write', 'egress:api.grower.example'],
    });
  });

  it('says so when there is nothing to approve', async () => {
    const nothing = failure(await f.admin(APPROVE));
    expect(nothing.extensions?.errorCode).toBe('INVALID_OPERATION');
    expect(nothing.message).toBe('Grower has no new permissions to approve.');
  });
});
