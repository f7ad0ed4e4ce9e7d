import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceWithAdmin, gqlAs } from '../../support/factories.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  contentFixture,
  createProject,
  doc,
  failure,
  ok,
  type ContentFixture,
  type Gql,
} from '../research/content-support.ts';
import { searchOk, startSearchServer } from './support.ts';

/** Saved feeds (000 §2 /explore) and the per-person search layout. */
let server: TestServer;
let mail: TestMailServer;
let f: ContentFixture;

beforeAll(async () => {
  ({ server, mail } = await startSearchServer());
  f = await contentFixture(server, mail, ['CONTRIBUTOR', 'VIEWER']);
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

const FEED_FIELDS =
  'id title query filter resultTypes projectIds projectCategoryIds shared rank createdBy { id name } isOwn canDelete createdAt updatedAt';
const CREATE = `mutation($input: CreateSavedFeedInput!) { createSavedFeed(input: $input) { ${FEED_FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateSavedFeedInput!) { updateSavedFeed(id: $id, input: $input) { ${FEED_FIELDS} } }`;
const DELETE = `mutation($id: ID!) { deleteSavedFeed(id: $id) }`;
const FEED = `query($id: ID!) { savedFeed(id: $id) { ${FEED_FIELDS} } }`;
const FEEDS = `query { savedFeeds { ${FEED_FIELDS} } }`;

interface Feed {
  id: string;
  title: string;
  query: string | null;
  filter: { combinator: string; forms: Array<Record<string, unknown>> } | null;
  resultTypes: string[];
  projectIds: string[];
  projectCategoryIds: string[];
  shared: boolean;
  rank: number;
  createdBy: { id: string; name: string } | null;
  isOwn: boolean;
  canDelete: boolean;
}

const titleContains = (text: string, id = 'title') => ({
  id,
  field: 'Title',
  operator: 'contains',
  values: { Title: { text } },
});
/** The three default forms of 000 §4, all blank. */
const DEFAULT_FORMS = [
  { id: 'default.folder', field: 'ProjectCategory', operator: 'oneOf', values: {} },
  { id: 'default.contributors', field: 'Contributors', operator: 'oneOf', values: {} },
  { id: 'default.created', field: 'Created', operator: 'after', values: { Created: { relativeDate: 'allTime' } } },
];

const create = async (gql: Gql, input: Record<string, unknown>): Promise<Feed> =>
  ok(await gql<{ createSavedFeed: Feed }>(CREATE, { input })).createSavedFeed;
const list = async (gql: Gql): Promise<Feed[]> => ok(await gql<{ savedFeeds: Feed[] }>(FEEDS)).savedFeeds;

describe('saving a feed', () => {
  it('keeps the search: query, filter without its blank forms, result types and scope', async () => {
    const projectId = (await createProject(f.admin, 'Feed scope')).id;
    const feed = await create(f.admin, {
      title: '  Pricing notes  ',
      query: '  pricing  ',
      filter: { combinator: 'or', forms: [...DEFAULT_FORMS, titleContains(' call ')] },
      resultTypes: ['NOTE', 'INSIGHT', 'NOTE'],
      projectIds: [projectId.toUpperCase()],
    });
    expect(feed.title).toBe('Pricing notes');
    expect(feed.query).toBe('pricing');
    expect(feed.filter).toEqual({
      combinator: 'or',
      forms: [{ id: 'title', field: 'Title', operator: 'contains', values: { Title: { text: 'call' } } }],
    });
    expect(feed.resultTypes).toEqual(['NOTE', 'INSIGHT']);
    expect(feed.projectIds).toEqual([projectId]);
    expect(feed.projectCategoryIds).toEqual([]);
    expect(feed).toMatchObject({ shared: false, isOwn: true, canDelete: true, createdBy: { id: f.ws.admin.user.id } });
    expect(ok(await f.admin<{ savedFeed: Feed }>(FEED, { id: feed.id })).savedFeed).toEqual(feed);
  });

  it('keeps a filter given as JSON text, and none when every form is blank', async () => {
    const fromText = await create(f.admin, {
      title: 'As text',
      filter: JSON.stringify({ combinator: 'and', forms: [titleContains('x')] }),
    });
    expect(fromText.filter?.forms).toHaveLength(1);
    const blank = await create(f.admin, { title: 'Blank', filter: { combinator: 'and', forms: DEFAULT_FORMS } });
    expect(blank.filter).toBeNull();
    expect(blank.query).toBeNull();
  });

  it('places new feeds after the caller’s last one', async () => {
    const a = await create(f.contributor.gql, { title: 'First' });
    const b = await create(f.contributor.gql, { title: 'Second' });
    expect(b.rank).toBeGreaterThan(a.rank);
    const titles = (await list(f.contributor.gql)).filter((x) => x.isOwn).map((x) => x.title);
    expect(titles.indexOf('First')).toBeLessThan(titles.indexOf('Second'));
  });

  it('refuses bad input naming the field and the limit, saving nothing', async () => {
    const before = (await list(f.viewer.gql)).length;
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ title: 'x'.repeat(201) }, 'input.title', /at most 200 characters/],
      [{ title: '   ' }, 'input.title', /title/],
      [{ title: 'Long query', query: 'y'.repeat(2001) }, 'input.query', /2000 characters/],
      [
        { title: 'Many words', query: Array.from({ length: 61 }, (_, i) => `w${i}`).join(' ') },
        'input.query',
        /60 words/,
      ],
      [
        {
          title: 'Bad operator',
          filter: { combinator: 'and', forms: [{ id: 'a', field: 'Created', operator: 'contains', values: {} }] },
        },
        'input.filter.forms.0.operator',
        /operator of Created/,
      ],
      [{ title: 'Bad JSON', filter: '{nope' }, 'input.filter', /not valid JSON/],
      [{ title: 'Bad ids', projectIds: ['not-an-id'] }, 'input.projectIds', /valid ids/],
      [
        { title: 'Shared blank', shared: true, filter: { combinator: 'and', forms: DEFAULT_FORMS } },
        'input.filter',
        /shared filter needs at least one condition/,
      ],
      [{ title: 'Shared none', shared: true, query: 'pricing' }, 'input.filter', /shared filter/],
    ];
    for (const [input, field, message] of cases) {
      const error = failure(await f.viewer.gql(CREATE, { input }));
      expect(error.extensions?.errorCode, JSON.stringify(input)).toBe('BAD_USER_INPUT');
      expect(error.extensions?.field).toBe(field);
      expect(error.message).toMatch(message);
    }
    expect(await list(f.viewer.gql)).toHaveLength(before);
  });

  it('accepts a 200-character title', async () => {
    expect((await create(f.viewer.gql, { title: 't'.repeat(200) })).title).toHaveLength(200);
  });
});

describe('who sees and changes a feed', () => {
  it('keeps a private feed to its creator; a shared one is listed for the workspace', async () => {
    const own = await create(f.contributor.gql, {
      title: 'Mine only',
      filter: { combinator: 'and', forms: [titleContains('secret')] },
    });
    const shared = await create(f.contributor.gql, {
      title: 'For everyone',
      shared: true,
      filter: { combinator: 'and', forms: [titleContains('team')] },
    });

    const seen = await list(f.viewer.gql);
    expect(seen.map((x) => x.id)).toContain(shared.id);
    expect(seen.map((x) => x.id)).not.toContain(own.id);
    expect(seen.find((x) => x.id === shared.id)).toMatchObject({
      isOwn: false,
      canDelete: false,
      createdBy: { id: f.contributor.user.id },
    });
    expect(failure(await f.viewer.gql(FEED, { id: own.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.viewer.gql(UPDATE, { id: own.id, input: { title: 'Taken' } })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );

    // Readable, but not theirs to change.
    const update = failure(await f.viewer.gql(UPDATE, { id: shared.id, input: { title: 'Renamed' } }));
    expect(update.extensions?.errorCode).toBe('FORBIDDEN');
    expect(failure(await f.viewer.gql(DELETE, { id: shared.id })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(ok(await f.contributor.gql<{ savedFeed: Feed }>(FEED, { id: shared.id })).savedFeed.title).toBe(
      'For everyone',
    );

    // A workspace admin may remove a shared feed, never see a private one.
    expect(ok(await f.admin<{ savedFeed: Feed }>(FEED, { id: shared.id })).savedFeed.canDelete).toBe(true);
    expect(failure(await f.admin(DELETE, { id: own.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(ok(await f.admin<{ deleteSavedFeed: boolean }>(DELETE, { id: shared.id })).deleteSavedFeed).toBe(true);
    expect((await list(f.contributor.gql)).map((x) => x.id)).not.toContain(shared.id);
    expect(ok(await f.contributor.gql<{ deleteSavedFeed: boolean }>(DELETE, { id: own.id })).deleteSavedFeed).toBe(
      true,
    );
    expect(failure(await f.contributor.gql(FEED, { id: own.id })).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('answers NOT_FOUND for a feed of another workspace, even a shared one', async () => {
    const other = await createWorkspaceWithAdmin(server, mail);
    const stranger = gqlAs(server, other.admin.accessToken, other.id);
    const shared = await create(f.admin, {
      title: 'Shared here',
      shared: true,
      filter: { combinator: 'and', forms: [titleContains('a')] },
    });
    expect(failure(await stranger(FEED, { id: shared.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect((await list(stranger)).map((x) => x.id)).not.toContain(shared.id);
    expect(failure(await stranger(DELETE, { id: shared.id })).extensions?.errorCode).toBe('NOT_FOUND');
  });
});

describe('changing a feed', () => {
  it('changes the keys sent, keeps the others, and clears with null', async () => {
    const feed = await create(f.contributor.gql, {
      title: 'Before',
      query: 'pricing',
      resultTypes: ['NOTE'],
      filter: { combinator: 'and', forms: [titleContains('call')] },
    });
    const renamed = ok(
      await f.contributor.gql<{ updateSavedFeed: Feed }>(UPDATE, {
        id: feed.id,
        input: { title: 'After', shared: true },
      }),
    ).updateSavedFeed;
    expect(renamed).toMatchObject({
      title: 'After',
      query: 'pricing',
      resultTypes: ['NOTE'],
      shared: true,
      filter: feed.filter,
    });

    // A shared feed cannot lose its filter; nothing changes when that is tried.
    const unfiltered = failure(
      await f.contributor.gql(UPDATE, { id: feed.id, input: { filter: null, title: 'Lost' } }),
    );
    expect(unfiltered.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.filter' });
    expect(ok(await f.contributor.gql<{ savedFeed: Feed }>(FEED, { id: feed.id })).savedFeed.title).toBe('After');

    const cleared = ok(
      await f.contributor.gql<{ updateSavedFeed: Feed }>(UPDATE, {
        id: feed.id,
        input: { shared: false, filter: null, query: null, resultTypes: null, rank: -5 },
      }),
    ).updateSavedFeed;
    expect(cleared).toMatchObject({
      title: 'After',
      shared: false,
      filter: null,
      query: null,
      resultTypes: [],
      rank: -5,
    });
    const bad = failure(await f.contributor.gql(UPDATE, { id: feed.id, input: { title: 'z'.repeat(201) } }));
    expect(bad.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.title' });
  });

  it('feeds a search with what it saved', async () => {
    const projectId = (await createProject(f.admin, 'Feed search')).id;
    for (const title of ['Feedable pricing call', 'Feedable onboarding']) {
      ok(
        await f.admin(`mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`, {
          input: { projectId, title, content: doc('text') },
        }),
      );
    }
    const feed = await create(f.admin, {
      title: 'Feedable',
      query: 'feedable',
      resultTypes: ['NOTE'],
      projectIds: [projectId],
      filter: { combinator: 'and', forms: [titleContains('pricing')] },
    });
    const results = await searchOk(f.admin, {
      query: feed.query,
      resultTypes: feed.resultTypes,
      projectIds: feed.projectIds,
      filter: feed.filter,
      selectedFilterId: feed.id,
    });
    expect(results.hits.map((h) => h.title)).toEqual(['Feedable pricing call']);
  });
});

describe('search layout', () => {
  const LAYOUT = `query { searchLayout }`;
  const SET = `mutation($layout: SearchLayout!) { setSearchLayout(layout: $layout) }`;

  it('is a list until chosen, and remembered per person', async () => {
    expect(ok(await f.viewer.gql<{ searchLayout: string }>(LAYOUT)).searchLayout).toBe('LIST');
    expect(ok(await f.viewer.gql<{ setSearchLayout: string }>(SET, { layout: 'GRID' })).setSearchLayout).toBe('GRID');
    expect(ok(await f.viewer.gql<{ searchLayout: string }>(LAYOUT)).searchLayout).toBe('GRID');
    expect(ok(await f.contributor.gql<{ searchLayout: string }>(LAYOUT)).searchLayout).toBe('LIST');
    ok(await f.viewer.gql(SET, { layout: 'LIST' }));
    expect(ok(await f.viewer.gql<{ searchLayout: string }>(LAYOUT)).searchLayout).toBe('LIST');
    expect((await f.viewer.gql(SET, { layout: 'TABLE' })).errors).toBeDefined();
  });
});
