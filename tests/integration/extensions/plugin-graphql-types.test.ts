import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin } from '../../../extensions-sdk/src/server/index.ts';
import { createTestHost, type TestHost } from '../../../extensions-sdk/src/testing/index.ts';
import { loadSandboxedPlugin, type SandboxedPlugin } from '../../../core/src/extensions/sandbox/index.ts';
import { createLogger } from '../../../core/src/logger.ts';

const fixture = join(import.meta.dirname, 'fixtures', 'graphql-types', 'channel-list');
const manifest = { version: '1.0.0', sdk: '^1', permissions: [] };

/** Declares a type of Fieldbook's own name, as if to replace it. */
const noteForger = definePlugin({
  ...manifest,
  id: 'note-forger',
  name: 'Note forger',
  server: {
    graphql: {
      typeDefs: 'type Note { id: ID! forged: Boolean } extend type Query { noteForgerNote: Note }',
      query: { noteForgerNote: () => ({ id: 'n', forged: true }) },
    },
  },
});

/** Adds a field to Fieldbook's User. */
const userExtender = definePlugin({
  ...manifest,
  id: 'user-extender',
  name: 'User extender',
  server: { graphql: { typeDefs: 'extend type User { userExtenderBadge: String }' } },
});

/** Claims a type name another plugin's prefix covers, after that plugin took it. */
const channelListPro = definePlugin({
  ...manifest,
  id: 'channel-list-pro',
  name: 'Channel list pro',
  server: {
    graphql: {
      typeDefs: 'type ChannelListProject { id: ID! } extend type Query { channelListProPing: ChannelListProject }',
      query: { channelListProPing: () => null },
    },
  },
});

let sandboxed: SandboxedPlugin;
let host: TestHost;

beforeAll(async () => {
  // The plugin with types of its own runs in its sandbox: its answers cross as JSON only.
  sandboxed = await loadSandboxedPlugin({
    packageDir: fixture,
    serverEntry: './server.ts',
    logger: createLogger('silent'),
  });
  host = await createTestHost({ plugins: [sandboxed.definition, noteForger, userExtender, channelListPro] });
  await host.signUpAdmin();
  await host.createProject('Interviews');
  await host.install('channel-list');
});

afterAll(async () => {
  await host?.close();
  sandboxed?.isolate.dispose();
});

describe('GraphQL types of a plugin', () => {
  it('answers a list of the plugin’s own object type, filtered by its own input and enum', async () => {
    const all = await host.gql<{
      channelListChannels: Array<{ id: string; name: string; kind: string; members: number | null }>;
    }>('{ channelListChannels { id name kind members } }');
    expect(all.errors).toBeUndefined();
    expect(all.data?.channelListChannels).toEqual([
      { id: 'C1', name: 'customer-feedback', kind: 'PUBLIC', members: 42 },
      { id: 'C2', name: 'research-ops', kind: 'PRIVATE', members: 5 },
      { id: 'C3', name: 'general', kind: 'PUBLIC', members: null },
    ]);
    const publicOnes = await host.gql<{ channelListChannels: Array<{ name: string }> }>(
      'query($f: ChannelListFilter) { channelListChannels(filter: $f) { name } }',
      { f: { kind: 'PUBLIC', nameContains: 'feed' } },
    );
    expect(publicOnes.data?.channelListChannels).toEqual([{ name: 'customer-feedback' }]);
    const badEnum = await host.gql('{ channelListChannels(filter: { kind: SECRET }) { name } }');
    expect(badEnum.errors?.[0]?.message).toMatch(/Value "SECRET" does not exist in "ChannelListKind" enum/);
    const tooLong = await host.gql('query($f: ChannelListFilter) { channelListChannels(filter: $f) { name } }', {
      f: { nameContains: 'x'.repeat(51) },
    });
    expect(tooLong.errors?.[0]).toMatchObject({
      message: 'nameContains can be at most 50 characters.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'filter.nameContains' },
    });
  });

  it('nests its own types, filled from the installation’s context', async () => {
    const answer = await host.gql<{
      channelListWorkspace: { installationId: string; projects: Array<{ title: string }> };
    }>('{ channelListWorkspace { installationId projects { title } } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.channelListWorkspace.installationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.data?.channelListWorkspace.projects).toEqual([{ title: 'Interviews' }]);
  });

  it('disables a plugin that declares type Note, extends User or takes a name another took, with the reason, and the rest of the schema is untouched', async () => {
    const listed = await host.gql<{ plugins: Array<{ id: string; state: string; problem: string | null }> }>(
      '{ plugins { id state problem } }',
    );
    const byId = Object.fromEntries((listed.data?.plugins ?? []).map((p) => [p.id, p]));
    expect(byId['channel-list']).toMatchObject({ state: 'READY', problem: null });
    expect(byId['note-forger']).toEqual({
      id: 'note-forger',
      state: 'FAILED',
      problem:
        'The GraphQL of note-forger declares the type Note; a plugin\'s own types must start with "NoteForger" (e.g. NoteForgerItem), and Fieldbook\'s may only be extended at Query and Mutation.',
    });
    expect(byId['user-extender']).toEqual({
      id: 'user-extender',
      state: 'FAILED',
      problem:
        'The GraphQL of user-extender declares an extension of User; a plugin may only extend Query and Mutation, and declare type, input and enum definitions whose names start with "UserExtender".',
    });
    expect(byId['channel-list-pro']).toMatchObject({
      state: 'FAILED',
      problem: 'The GraphQL ChannelListProject of channel-list-pro is already declared by channel-list.',
    });
    // Their fields never joined the schema; Fieldbook's own types are as they were.
    expect((await host.gql('{ noteForgerNote { forged } }')).errors?.[0]?.message).toMatch(
      /Cannot query field "noteForgerNote"/,
    );
    expect((await host.gql('{ channelListProPing { id } }')).errors?.[0]?.message).toMatch(
      /Cannot query field "channelListProPing"/,
    );
    const types = await host.gql<{
      note: { fields: Array<{ name: string }> };
      user: { fields: Array<{ name: string }> };
    }>('{ note: __type(name: "Note") { fields { name } } user: __type(name: "User") { fields { name } } }');
    expect(types.data?.note.fields.map((f) => f.name)).not.toContain('forged');
    expect(types.data?.user.fields.map((f) => f.name)).not.toContain('userExtenderBadge');
  });
});
