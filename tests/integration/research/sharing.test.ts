import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../../core/src/db/tenancy.ts';
import { createWorkspaceWithAdmin, gqlAs } from '../../support/factories.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  contentFixture,
  createProject,
  doc,
  failure,
  ok,
  startResearchServer,
  type ContentFixture,
  type Gql,
} from './content-support.ts';

const LINK_FIELDS = 'id token path url objectType objectId payload createdById createdAt revokedAt active';
const CREATE_LINK = `mutation($type: ShareObjectType!, $id: ID!, $payload: JSON) {
  createShareLink(objectType: $type, objectId: $id, payload: $payload) { ${LINK_FIELDS} }
}`;
const REVOKE_LINK = `mutation($id: ID!) { revokeShareLink(id: $id) { ${LINK_FIELDS} } }`;
const LINKS = `query($type: ShareObjectType!, $id: ID!, $all: Boolean) {
  shareLinks(objectType: $type, objectId: $id, includeRevoked: $all) { ${LINK_FIELDS} }
}`;
const HIGHLIGHT_FIELDS = 'id text startOffset endOffset color noteTitle';
const SHARED = `query {
  sharedObject {
    objectType payload sharedAt
    object {
      __typename
      ... on PublicInsight { id title content publishedAt highlights { ${HIGHLIGHT_FIELDS} } }
      ... on PublicNote { id title content contentText highlights { ${HIGHLIGHT_FIELDS} } }
      ... on PublicHighlight { ${HIGHLIGHT_FIELDS} }
      ... on PublicProject { id title readme insights { id title publishedAt highlights { id text } } }
      ... on PublicProjectReadme { id title readme }
    }
  }
}`;
const UPDATE_WORKSPACE = `mutation($input: UpdateWorkspaceInput!) { updateWorkspace(input: $input) { id publicLinksDisabled } }`;
const NOTE_TEXT = 'The export button is hard to find on mobile.';
const DEAD_LINK = 'This link does not exist or is no longer shared. Ask whoever sent it for a new one.';

interface Link {
  id: string;
  token: string;
  path: string;
  url: string;
  objectType: string;
  objectId: string;
  payload: Record<string, unknown>;
  createdById: string;
  revokedAt: string | null;
  active: boolean;
}
interface PublicHighlight {
  id: string;
  text: string;
  noteTitle: string | null;
}
interface Shared {
  objectType: string;
  payload: Record<string, unknown>;
  object: {
    __typename: string;
    id: string;
    title?: string;
    content?: unknown;
    contentText?: string;
    readme?: unknown;
    text?: string;
    noteTitle?: string | null;
    publishedAt?: string | null;
    highlights?: PublicHighlight[];
    insights?: Array<{ id: string; title: string; highlights: Array<{ id: string }> }>;
  };
}

let server: TestServer;
let mail: TestMailServer;
let f: ContentFixture;
let projectId: string;
let noteId: string;
let highlightId: string;
let insightId: string;
let draftInsightId: string;

/** GraphQL as an anonymous viewer holding a share token (and, for some tests, other headers). */
const anonymous = <T = Record<string, unknown>>(
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => server.gql<T>(query, variables, { headers: { 'x-share-token': token, ...headers } });

async function share(gql: Gql, type: string, id: string, payload?: unknown): Promise<Link> {
  return ok(await gql<{ createShareLink: Link }>(CREATE_LINK, { type, id, payload })).createShareLink;
}

async function view(token: string): Promise<Shared> {
  return ok(await anonymous<{ sharedObject: Shared }>(token, SHARED)).sharedObject;
}

async function expectDead(token: string): Promise<void> {
  const error = failure(await anonymous(token, SHARED));
  expect(error.extensions?.errorCode).toBe('NOT_FOUND');
  expect(error.message).toBe(DEAD_LINK);
  expect(error.extensions?.humanReadable).toBe(true);
}

beforeAll(async () => {
  ({ server, mail } = await startResearchServer());
  f = await contentFixture(server, mail);
  projectId = (await createProject(f.contributor.gql, 'Mobile study', { readme: doc('Why we study mobile') })).id;
  noteId = ok(
    await f.contributor.gql<{ createNote: { id: string } }>(
      `mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`,
      {
        input: { projectId, title: 'Interview with Ana', content: doc(NOTE_TEXT) },
      },
    ),
  ).createNote.id;
  highlightId = ok(
    await f.contributor.gql<{ createHighlight: { id: string } }>(
      `mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }`,
      {
        input: { noteId, startOffset: 4, endOffset: 17 },
      },
    ),
  ).createHighlight.id;
  const createInsight = async (title: string) =>
    ok(
      await f.contributor.gql<{ createInsight: { id: string } }>(
        `mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }`,
        {
          input: { projectId, title, content: doc(`${title}, in detail`) },
        },
      ),
    ).createInsight.id;
  insightId = await createInsight('Export is hidden');
  draftInsightId = await createInsight('Draft thought');
  ok(await f.contributor.gql(`mutation($id: ID!) { publishInsight(id: $id) { id } }`, { id: insightId }));
});

afterAll(async () => {
  await server?.close();
  await mail?.close();
});

describe('creating share links', () => {
  it('gives each link a fresh token of exactly 12 letters or digits and a /p/ address', async () => {
    const links = [await share(f.contributor.gql, 'note', noteId), await share(f.contributor.gql, 'note', noteId)];
    for (const link of links) {
      expect(link.token).toMatch(/^[A-Za-z0-9]{12}$/);
      expect(link.path).toBe(`/p/${link.token}`);
      expect(link.url).toBe(`http://localhost:3000/p/${link.token}`);
      expect(link).toMatchObject({
        objectType: 'note',
        objectId: noteId,
        payload: {},
        createdById: f.contributor.user.id,
        revokedAt: null,
        active: true,
      });
    }
    expect(links[0]!.token).not.toBe(links[1]!.token);
    const listed = ok(
      await f.contributor.gql<{ shareLinks: Link[] }>(LINKS, { type: 'note', id: noteId }),
    ).shareLinks.map((l) => l.id);
    expect(listed.slice(0, 2)).toEqual([links[1]!.id, links[0]!.id]);
  });

  it('keeps the payload up to 17000 serialised characters and refuses a longer one, creating nothing', async () => {
    const sized = (length: number) => ({ note: 'x'.repeat(length - '{"note":""}'.length) });
    const kept = await share(f.contributor.gql, 'insight', insightId, sized(17_000));
    expect(JSON.stringify(kept.payload).length).toBe(17_000);

    const before = ok(
      await f.contributor.gql<{ shareLinks: Link[] }>(LINKS, { type: 'insight', id: insightId, all: true }),
    ).shareLinks.length;
    const error = failure(
      await f.contributor.gql(CREATE_LINK, { type: 'insight', id: insightId, payload: sized(17_001) }),
    );
    expect(error.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'payload' });
    expect(error.message).toBe(
      'The share payload can be at most 17000 characters once serialised; this one has 17001.',
    );
    const notObject = failure(
      await f.contributor.gql(CREATE_LINK, { type: 'insight', id: insightId, payload: ['README'] }),
    );
    expect(notObject.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'payload' });
    const after = ok(
      await f.contributor.gql<{ shareLinks: Link[] }>(LINKS, { type: 'insight', id: insightId, all: true }),
    ).shareLinks.length;
    expect(after).toBe(before);
  });

  it('takes Contributor or above: a viewer can read the note but cannot share it or list its links', async () => {
    ok(await f.viewer.gql(`query($id: ID!) { note(id: $id) { id } }`, { id: noteId }));
    expect(failure(await f.viewer.gql(CREATE_LINK, { type: 'note', id: noteId })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(failure(await f.viewer.gql(LINKS, { type: 'note', id: noteId })).extensions?.errorCode).toBe('FORBIDDEN');
    expect((await share(f.manager.gql, 'note', noteId)).createdById).toBe(f.manager.user.id);
  });

  it('answers NOT_FOUND for objects of another workspace, unknown ids and unreadable projects', async () => {
    const other = await createWorkspaceWithAdmin(server, mail);
    const outsider = gqlAs(server, other.admin.accessToken, other.id);
    for (const [type, id] of [
      ['note', noteId],
      ['insight', insightId],
      ['noteHighlight', highlightId],
      ['project', projectId],
      ['projectReadme', projectId],
    ] as const) {
      const error = failure(await outsider(CREATE_LINK, { type, id }));
      expect(error.extensions?.errorCode, type).toBe('NOT_FOUND');
    }
    expect(failure(await outsider(LINKS, { type: 'note', id: noteId })).extensions?.errorCode).toBe('NOT_FOUND');
    const link = await share(f.contributor.gql, 'note', noteId);
    expect(failure(await outsider(REVOKE_LINK, { id: link.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      failure(await f.contributor.gql(CREATE_LINK, { type: 'note', id: '00000000-0000-4000-8000-000000000000' }))
        .message,
    ).toBe('That note was not found.');

    // A restricted project the contributor has no grant on does not exist for them.
    const secret = (await createProject(f.admin, 'Board pack')).id;
    ok(
      await f.admin(`mutation($id: ID!, $p: JSON!) { updateProjectAccess(projectId: $id, permissions: $p) { id } }`, {
        id: secret,
        p: { groups: { markup: 'none' }, users: {} },
      }),
    );
    expect(failure(await f.contributor.gql(CREATE_LINK, { type: 'project', id: secret })).message).toBe(
      'That project was not found.',
    );
  });
});

describe('anonymous viewing', () => {
  it('shows a note with its title, content and highlights', async () => {
    const shared = await view((await share(f.contributor.gql, 'note', noteId)).token);
    expect(shared.objectType).toBe('note');
    expect(shared.object).toMatchObject({
      __typename: 'PublicNote',
      id: noteId,
      title: 'Interview with Ana',
      content: doc(NOTE_TEXT),
      contentText: NOTE_TEXT,
    });
    expect(shared.object.highlights).toEqual([
      {
        id: highlightId,
        text: 'export button',
        startOffset: 4,
        endOffset: 17,
        color: null,
        noteTitle: 'Interview with Ana',
      },
    ]);
  });

  it('shows a highlight with its text and note title', async () => {
    const shared = await view((await share(f.contributor.gql, 'noteHighlight', highlightId)).token);
    expect(shared.object).toMatchObject({
      __typename: 'PublicHighlight',
      id: highlightId,
      text: 'export button',
      noteTitle: 'Interview with Ana',
    });
  });

  it('shows an insight with its published date and the highlights of its project it cites', async () => {
    // Citing has no API yet: the link is made in the database, as citing will make it.
    const elsewhere = (await createProject(f.contributor.gql, 'Other study')).id;
    const otherNote = ok(
      await f.contributor.gql<{ createNote: { id: string } }>(
        `mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`,
        {
          input: { projectId: elsewhere, title: 'Elsewhere', content: doc('Private words from elsewhere') },
        },
      ),
    ).createNote.id;
    const foreign = ok(
      await f.contributor.gql<{ createHighlight: { id: string } }>(
        `mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }`,
        {
          input: { noteId: otherNote, startOffset: 0, endOffset: 13 },
        },
      ),
    ).createHighlight.id;
    await server.fieldbook.db
      .owner('highlights')
      .whereIn('id', [highlightId, foreign])
      .update({ insight_id: insightId });

    const link = await share(f.contributor.gql, 'insight', insightId, { theme: 'dark' });
    const shared = await view(link.token);
    expect(shared.payload).toEqual({ theme: 'dark' });
    expect(shared.object).toMatchObject({
      __typename: 'PublicInsight',
      id: insightId,
      title: 'Export is hidden',
      content: doc('Export is hidden, in detail'),
    });
    expect(shared.object.publishedAt).toBeTruthy();
    expect(shared.object.highlights!.map((h) => h.id)).toEqual([highlightId]);

    const withoutHighlights = await view(
      (await share(f.contributor.gql, 'insight', insightId, { sections: ['INSIGHTS'] })).token,
    );
    expect(withoutHighlights.object.highlights).toEqual([]);
  });

  it('shows a project with its readme and only its published insights; sections narrow it', async () => {
    const shared = await view((await share(f.contributor.gql, 'project', projectId)).token);
    expect(shared.object).toMatchObject({
      __typename: 'PublicProject',
      id: projectId,
      title: 'Mobile study',
      readme: doc('Why we study mobile'),
    });
    expect(shared.object.insights!.map((i) => i.id)).toEqual([insightId]);
    expect(shared.object.insights!.map((i) => i.id)).not.toContain(draftInsightId);

    const readmeOnly = await view(
      (await share(f.contributor.gql, 'project', projectId, { sections: ['README'] })).token,
    );
    expect(readmeOnly.object.readme).toEqual(doc('Why we study mobile'));
    expect(readmeOnly.object.insights).toEqual([]);

    const readme = await view((await share(f.contributor.gql, 'projectReadme', projectId)).token);
    expect(readme).toMatchObject({
      objectType: 'projectReadme',
      object: {
        __typename: 'PublicProjectReadme',
        id: projectId,
        title: 'Mobile study',
        readme: doc('Why we study mobile'),
      },
    });
  });

  it('reaches nothing else of the workspace with a share token', async () => {
    const { token } = await share(f.contributor.gql, 'project', projectId);
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['query { projects { id } }', {}],
      ['query($id: ID!) { project(id: $id) { id } }', { id: projectId }],
      ['query($id: ID!) { note(id: $id) { id } }', { id: noteId }],
      ['query($id: ID!) { notes(projectId: $id) { nodes { id } } }', { id: projectId }],
      ['query($id: ID!) { insight(id: $id) { id } }', { id: draftInsightId }],
      ['query($id: ID!) { highlights(noteId: $id) { nodes { id } } }', { id: noteId }],
      [LINKS, { type: 'project', id: projectId }],
      [CREATE_LINK, { type: 'note', id: noteId }],
      ['mutation($id: ID!) { deleteNote(id: $id) }', { id: noteId }],
    ];
    for (const [query, variables] of attempts) {
      const headerSets: Array<Record<string, string>> = [{}, { 'x-fieldbook-workspace': f.ws.id }];
      for (const headers of headerSets) {
        const error = failure(await anonymous(token, query, variables, headers));
        expect(error.extensions?.errorCode, query).toBe('UNAUTHENTICATED');
      }
    }
    // The token does not open the workspace itself either.
    const workspace = await anonymous<{ currentWorkspace: unknown }>(
      token,
      'query { currentWorkspace { id name } }',
      {},
      { 'x-fieldbook-workspace': f.ws.id },
    );
    expect(workspace.data?.currentWorkspace ?? null).toBeNull();
  });

  it('refuses a share token sent with a bearer token, and a token of the wrong shape', async () => {
    const { token } = await share(f.contributor.gql, 'note', noteId);
    const both = await server.gql(SHARED, {}, { token: f.ws.admin.accessToken, headers: { 'x-share-token': token } });
    expect(failure(both).extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(failure(both).message).toBe('Send either a bearer token or a public share token, not both.');
    for (const bad of [token.slice(1), `${token}A`, `${token.slice(1)}-`]) {
      const error = failure(await anonymous(bad, SHARED));
      expect(error.extensions?.errorCode).toBe('BAD_USER_INPUT');
      expect(error.message).toBe('A share token is exactly 12 letters or digits.');
    }
  });

  it('answers NOT_FOUND, in words, for a well-formed token that opens nothing', async () => {
    await expectDead('Zz9Zz9Zz9Zz9');
  });

  it('only lets a transaction that names a token read that one link row', async () => {
    const { token } = await share(f.contributor.gql, 'note', noteId);
    const app = server.fieldbook.db.app;
    const unscoped = await withTenant(app, {}, (trx) => trx('shares').select('token'));
    expect(unscoped).toEqual([]);
    const named = await withTenant(app, {}, async (trx) => {
      await trx.raw("select set_config('app.share_token', ?, true)", [token]);
      return trx('shares').select('token', 'workspace_id');
    });
    expect(named).toEqual([{ token, workspace_id: f.ws.id }]);
  });
});

describe('ending links', () => {
  it('revoking kills the link at once and takes it off the list', async () => {
    const link = await share(f.contributor.gql, 'note', noteId);
    await view(link.token);
    const revoked = ok(await f.manager.gql<{ revokeShareLink: Link }>(REVOKE_LINK, { id: link.id })).revokeShareLink;
    expect(revoked.active).toBe(false);
    expect(revoked.revokedAt).toBeTruthy();
    await expectDead(link.token);
    const again = ok(await f.contributor.gql<{ revokeShareLink: Link }>(REVOKE_LINK, { id: link.id })).revokeShareLink;
    expect(again.revokedAt).toBe(revoked.revokedAt);
    const live = ok(
      await f.contributor.gql<{ shareLinks: Link[] }>(LINKS, { type: 'note', id: noteId }),
    ).shareLinks.map((l) => l.id);
    expect(live).not.toContain(link.id);
    const all = ok(
      await f.contributor.gql<{ shareLinks: Link[] }>(LINKS, { type: 'note', id: noteId, all: true }),
    ).shareLinks;
    expect(all.find((l) => l.id === link.id)).toMatchObject({ active: false });
    expect(failure(await f.viewer.gql(REVOKE_LINK, { id: link.id })).extensions?.errorCode).toBe('FORBIDDEN');
  });

  it('a link dies with its object going to the trash', async () => {
    const note = ok(
      await f.contributor.gql<{ createNote: { id: string } }>(
        `mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`,
        {
          input: { projectId, title: 'Short-lived', content: doc('Soon gone') },
        },
      ),
    ).createNote.id;
    const link = await share(f.contributor.gql, 'note', note);
    await view(link.token);
    ok(await f.manager.gql(`mutation($id: ID!) { deleteNote(id: $id) }`, { id: note }));
    await expectDead(link.token);
  });

  it('a project whose public group is none cannot be shared and its links stop working', async () => {
    const project = (await createProject(f.contributor.gql, 'Embargoed')).id;
    const link = await share(f.contributor.gql, 'projectReadme', project);
    await view(link.token);
    ok(
      await f.contributor.gql(
        `mutation($id: ID!, $p: JSON!) { updateProjectAccess(projectId: $id, permissions: $p) { id } }`,
        { id: project, p: { groups: { public: 'none' }, users: { [f.contributor.user.id]: 'full' } } },
      ),
    );
    await expectDead(link.token);
    const error = failure(await f.contributor.gql(CREATE_LINK, { type: 'project', id: project }));
    expect(error.extensions?.errorCode).toBe('FORBIDDEN');
    expect(error.message).toContain('Public links are turned off for this project');
  });

  it('turning public links off in the workspace kills every link and refuses new ones', async () => {
    const links = [
      await share(f.contributor.gql, 'note', noteId),
      await share(f.contributor.gql, 'project', projectId),
    ];
    for (const link of links) await view(link.token);
    ok(await f.admin(UPDATE_WORKSPACE, { input: { publicLinksDisabled: true } }));
    try {
      for (const link of links) await expectDead(link.token);
      const error = failure(await f.contributor.gql(CREATE_LINK, { type: 'insight', id: insightId }));
      expect(error.extensions?.errorCode).toBe('FORBIDDEN');
      expect(error.message).toBe(
        'Public links are turned off in this workspace. A workspace admin can turn them on in the workspace settings.',
      );
    } finally {
      ok(await f.admin(UPDATE_WORKSPACE, { input: { publicLinksDisabled: false } }));
    }
    // Links were never revoked: turning the setting back on opens them again.
    for (const link of links) await view(link.token);
  });
});
