import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin } from '../../extensions-sdk/src/server/index.ts';
import research from '../../modules/research/src/index.ts';
import search from '../../modules/search/src/index.ts';
import { startMailServer, type TestMailServer } from '../support/smtp.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { contentFixture, createProject, failure, ok, type ContentFixture } from './research/content-support.ts';

/**
 * An id an input names is checked as readable by the person sending it, in the workspace they are
 * in: another workspace's project id (or one of this workspace's the person cannot read) is
 * refused naming the field, not stored.
 */
const projectSetting = definePlugin({
  id: 'project-setting',
  name: 'Project setting',
  version: '1.0.0',
  sdk: '^1',
  permissions: ['projects:read'],
  settings: { projectId: { kind: 'project', label: 'Project for messages' } },
});

let server: TestServer;
let mail: TestMailServer;
let a: ContentFixture;
let b: ContentFixture;

beforeAll(async () => {
  mail = await startMailServer();
  server = await startTestServer(
    { smtpUrl: mail.url },
    { modules: [research, search], plugins: [projectSetting], discoverPlugins: false },
  );
  a = await contentFixture(server, mail, ['CONTRIBUTOR']);
  b = await contentFixture(server, mail, ['CONTRIBUTOR']);
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

const INSTALL =
  'mutation($s: [PluginSettingInput!]) { installPlugin(pluginId: "project-setting", settings: $s) { id } }';
const UPDATE_SETTINGS =
  'mutation($s: [PluginSettingInput!]!) { updatePluginSettings(pluginId: "project-setting", settings: $s) { id } }';
const CREATE_FEED =
  'mutation($input: CreateSavedFeedInput!) { createSavedFeed(input: $input) { id projectIds projectCategoryIds } }';
const UPDATE_FEED =
  'mutation($id: ID!, $input: UpdateSavedFeedInput!) { updateSavedFeed(id: $id, input: $input) { id projectIds } }';

const installedSetting = async (workspaceId: string): Promise<unknown> =>
  (
    await server.fieldbook.db
      .owner('plugin_installations')
      .where({ workspace_id: workspaceId, plugin_id: 'project-setting' })
      .first()
  )?.settings ?? null;

describe('installing a plugin with a project setting', () => {
  it("refuses another workspace's project, naming the setting, and stores nothing", async () => {
    const theirs = await createProject(b.admin, 'Beta research');
    const refused = failure(await a.admin(INSTALL, { s: [{ key: 'projectId', text: theirs.id }] }));
    expect(refused.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'settings.projectId' });
    expect(await installedSetting(a.ws.id)).toBeNull();

    const mine = await createProject(a.admin, 'Alpha research');
    ok(await a.admin(INSTALL, { s: [{ key: 'projectId', text: mine.id }] }));
    expect(await installedSetting(a.ws.id)).toEqual({ projectId: mine.id });
    // Changing the setting later is checked the same way.
    const moved = failure(await a.admin(UPDATE_SETTINGS, { s: [{ key: 'projectId', text: theirs.id }] }));
    expect(moved.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'settings.projectId' });
    expect(await installedSetting(a.ws.id)).toEqual({ projectId: mine.id });
  });
});

describe('saving a feed scoped to projects and folders', () => {
  it("refuses another workspace's project or folder ids, naming the field", async () => {
    const theirs = await createProject(b.admin, 'Beta scope');
    const theirFolder = ok(
      await b.admin<{ createFolder: { id: string } }>('mutation { createFolder(title: "Beta folder") { id } }'),
    ).createFolder;
    const project = failure(await a.admin(CREATE_FEED, { input: { title: 'Smuggled', projectIds: [theirs.id] } }));
    expect(project.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.projectIds' });
    const folder = failure(
      await a.admin(CREATE_FEED, { input: { title: 'Smuggled', projectCategoryIds: [theirFolder.id] } }),
    );
    expect(folder.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.projectCategoryIds' });
    expect(await server.fieldbook.db.owner('saved_feeds').where({ workspace_id: a.ws.id, title: 'Smuggled' })).toEqual(
      [],
    );
  });

  it('refuses a project of this workspace the person cannot read, on create and on update', async () => {
    const open = await createProject(a.admin, 'Open to all');
    const restricted = await createProject(a.admin, 'Admins only');
    ok(
      await a.admin('mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }', {
        id: restricted.id,
        m: { groups: { markup: 'none' } },
      }),
    );
    const feed = ok(
      await a.contributor.gql<{ createSavedFeed: { id: string; projectIds: string[] } }>(CREATE_FEED, {
        input: { title: 'Mine', projectIds: [open.id] },
      }),
    ).createSavedFeed;
    expect(feed.projectIds).toEqual([open.id]);
    const created = failure(
      await a.contributor.gql(CREATE_FEED, { input: { title: 'Peek', projectIds: [open.id, restricted.id] } }),
    );
    expect(created.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.projectIds' });
    const updated = failure(
      await a.contributor.gql(UPDATE_FEED, { id: feed.id, input: { projectIds: [restricted.id] } }),
    );
    expect(updated.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.projectIds' });
    // A change that names no ids is not held back by them.
    ok(await a.contributor.gql(UPDATE_FEED, { id: feed.id, input: { title: 'Still mine' } }));
  });
});

describe('saving a feed whose filter names objects', () => {
  const tagsFilter = (ids: string[]) => ({
    combinator: 'and',
    forms: [{ id: 'f1', field: 'Tags', operator: 'oneOf', values: { Tags: { tagMultiselect: ids } } }],
  });
  const peopleFilter = (ids: string[]) => ({
    combinator: 'and',
    forms: [{ id: 'f1', field: 'People', operator: 'oneOf', values: { People: { personMultiselect: ids } } }],
  });
  const tagIn = async (gql: ContentFixture['admin'], projectId: string, title: string) => {
    const board = ok(
      await gql<{ createTagBoard: { id: string } }>(
        'mutation($p: ID!) { createTagBoard(input: { projectId: $p, title: "Board" }) { id } }',
        { p: projectId },
      ),
    ).createTagBoard.id;
    return ok(
      await gql<{ createTag: { id: string } }>(
        'mutation($b: ID!, $t: String!) { createTag(input: { boardId: $b, title: $t }) { id } }',
        { b: board, t: title },
      ),
    ).createTag.id;
  };

  it("refuses another workspace's tags and people in the filter, naming the filter, and stores nothing", async () => {
    const theirTag = await tagIn(b.admin, (await createProject(b.admin, 'Beta tags')).id, 'Pricing');
    const theirPerson = ok(
      await b.admin<{ createPerson: { id: string } }>('mutation { createPerson(input: { name: "Ola Beta" }) { id } }'),
    ).createPerson.id;
    const myTag = await tagIn(a.admin, (await createProject(a.admin, 'Alpha tags')).id, 'Pricing');

    const tag = failure(
      await a.admin(CREATE_FEED, { input: { title: 'Smuggled tag', filter: tagsFilter([myTag, theirTag]) } }),
    );
    expect(tag.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.filter' });
    const person = failure(
      await a.admin(CREATE_FEED, { input: { title: 'Smuggled person', filter: peopleFilter([theirPerson]) } }),
    );
    expect(person.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.filter' });
    expect(
      await server.fieldbook.db.owner('saved_feeds').where({ workspace_id: a.ws.id }).whereLike('title', 'Smuggled%'),
    ).toEqual([]);

    const feed = ok(
      await a.admin<{ createSavedFeed: { id: string } }>(CREATE_FEED, {
        input: { title: 'Pricing tag', filter: tagsFilter([myTag]) },
      }),
    ).createSavedFeed;
    const updated = failure(await a.admin(UPDATE_FEED, { id: feed.id, input: { filter: tagsFilter([theirTag]) } }));
    expect(updated.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.filter' });
  });

  it('refuses a tag of a project the person cannot read', async () => {
    const restricted = await createProject(a.admin, 'Tags for admins');
    ok(
      await a.admin('mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }', {
        id: restricted.id,
        m: { groups: { markup: 'none' } },
      }),
    );
    const hidden = await tagIn(a.admin, restricted.id, 'Hidden');
    const refused = failure(
      await a.contributor.gql(CREATE_FEED, { input: { title: 'Peek at tags', filter: tagsFilter([hidden]) } }),
    );
    expect(refused.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.filter' });
    ok(await a.admin(CREATE_FEED, { input: { title: 'Admin sees tags', filter: tagsFilter([hidden]) } }));
  });
});
