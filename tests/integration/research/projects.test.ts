import { describe, expect, it } from 'vitest';
import {
  contentFixture,
  CREATE_PROJECT,
  createProject,
  doc,
  failure,
  ok,
  PROJECT_FIELDS,
  useResearchFixture,
} from './content-support.ts';

const PROJECT = `query($id: ID!) { project(id: $id) { ${PROJECT_FIELDS} } }`;
const PROJECTS = `query($status: ProjectStatus) { projects(status: $status) { id title rank } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateProjectInput!) { updateProject(id: $id, input: $input) { ${PROJECT_FIELDS} } }`;
const MOVE = `mutation($id: ID!, $p: ID, $n: ID) { moveProject(id: $id, previousId: $p, nextId: $n) { id rank } }`;
const ACCESS = `mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id permissions myAccess { level restricted } } }`;
const DELETE = 'mutation($id: ID!) { deleteProject(id: $id) }';

interface Project {
  id: string;
  title: string;
  status: string;
  color: string | null;
  rank: number;
  enabledSections: string[];
  permissions: { groups: Record<string, string>; users: Record<string, string> };
  starred: boolean;
  myAccess: {
    level: string;
    accessRole: string | null;
    canEdit: boolean;
    canManageAccess: boolean;
    canDelete: boolean;
    restricted: boolean;
  };
}

describe('projects', () => {
  const f = useResearchFixture();

  it('lets a contributor create a project with defaults, an expanded colour and full access of their own', async () => {
    const res = ok(
      await f.contributor.gql<{ createProject: Project }>(CREATE_PROJECT, {
        input: { title: '  Onboarding study ', color: '#3A7', readme: doc('Why we run it') },
      }),
    );
    const p = res.createProject;
    expect(p).toMatchObject({ title: 'Onboarding study', status: 'ACTIVE', color: '#33aa77', starred: false });
    expect(p.enabledSections).toEqual(['CHARTS', 'HIGHLIGHTS', 'INSIGHTS', 'NOTES', 'README', 'TAGS']);
    expect(p.permissions).toEqual({ groups: {}, users: { [f.contributor.user.id]: 'full' } });
    expect(p.myAccess).toEqual({
      level: 'full',
      accessRole: 'CONTRIBUTOR',
      canEdit: true,
      canManageAccess: true,
      canDelete: false,
      restricted: false,
    });

    const seenByViewer = ok(await f.viewer.gql<{ project: Project }>(PROJECT, { id: p.id })).project;
    expect(seenByViewer.myAccess).toMatchObject({ level: 'read', accessRole: 'VIEWER', canEdit: false });

    const updated = ok(
      await f.contributor.gql<{ updateProject: Project }>(UPDATE, {
        id: p.id,
        input: { status: 'COMPLETED', color: '#ABCDEF', enabledSections: ['NOTES', 'NOTES', 'README'] },
      }),
    ).updateProject;
    expect(updated).toMatchObject({
      status: 'COMPLETED',
      color: '#abcdef',
      enabledSections: ['NOTES', 'README'],
      title: 'Onboarding study',
    });
    const completed = ok(
      await f.admin<{ projects: Array<{ id: string }> }>(PROJECTS, { status: 'COMPLETED' }),
    ).projects;
    expect(completed.map((x) => x.id)).toEqual([p.id]);
    expect(ok(await f.admin<{ projects: unknown[] }>(PROJECTS, { status: 'ARCHIVED' })).projects).toEqual([]);
  });

  it('rejects bad input with the field and the limit, changing nothing', async () => {
    const long = failure(await f.contributor.gql(CREATE_PROJECT, { input: { title: 'x'.repeat(201) } }));
    expect(long.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.title' });
    expect(long.message).toContain('A project title can be at most 200 characters long.');
    expect(failure(await f.contributor.gql(CREATE_PROJECT, { input: { title: '   ' } })).message).toContain(
      'Give the project a title.',
    );
    expect(
      failure(await f.contributor.gql(CREATE_PROJECT, { input: { title: 'Ok', color: 'blue' } })).extensions,
    ).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.color' });
    const big = failure(
      await f.contributor.gql(CREATE_PROJECT, { input: { title: 'Big', readme: doc('x'.repeat(5_000_000)) } }),
    );
    expect(big.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.readme' });
    expect(big.message).toContain('at most 5,000,000 characters');
    const titles = ok(await f.admin<{ projects: Array<{ title: string }> }>(PROJECTS)).projects.map((p) => p.title);
    expect(titles).not.toContain('Big');
    expect(titles).not.toContain('Ok');

    const id = (await createProject(f.contributor.gql, 'Keeps its title')).id;
    expect(failure(await f.contributor.gql(UPDATE, { id, input: { title: '' } })).extensions?.errorCode).toBe(
      'BAD_USER_INPUT',
    );
    expect(ok(await f.admin<{ project: Project }>(PROJECT, { id })).project.title).toBe('Keeps its title');
  });

  it('lets viewers read but not create or update; only managers and admins delete', async () => {
    const id = (await createProject(f.contributor.gql, 'Role checks')).id;
    expect(failure(await f.viewer.gql(CREATE_PROJECT, { input: { title: 'Nope' } })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(failure(await f.viewer.gql(UPDATE, { id, input: { title: 'Nope' } })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(failure(await f.contributor.gql(DELETE, { id })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(ok(await f.manager.gql<{ deleteProject: boolean }>(DELETE, { id })).deleteProject).toBe(true);
    expect(failure(await f.admin(PROJECT, { id })).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('answers NOT_FOUND for a project of another workspace', async () => {
    const other = await contentFixture(f.server, f.mail, []);
    const foreign = (await createProject(other.admin, 'Elsewhere')).id;
    expect(failure(await f.admin(PROJECT, { id: foreign })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.admin(UPDATE, { id: foreign, input: { title: 'Mine now' } })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );
    expect(failure(await f.admin(DELETE, { id: foreign })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(ok(await other.admin<{ project: Project }>(PROJECT, { id: foreign })).project.title).toBe('Elsewhere');
  });

  it('hides a restricted project from members without a grant and opens it to grants', async () => {
    const id = (await createProject(f.contributor.gql, 'Restricted research')).id;
    const restricted = ok(
      await f.contributor.gql<{ updateProjectAccess: Project }>(ACCESS, {
        id,
        m: { groups: { markup: 'none' }, users: { [f.contributor.user.id]: 'full' } },
      }),
    ).updateProjectAccess;
    expect(restricted.myAccess).toEqual({ level: 'full', restricted: true });

    // The viewer has no grant: the project does not exist for them.
    expect(failure(await f.viewer.gql(PROJECT, { id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      ok(await f.viewer.gql<{ projects: Array<{ id: string }> }>(PROJECTS)).projects.map((p) => p.id),
    ).not.toContain(id);
    expect(failure(await f.viewer.gql(UPDATE, { id, input: { title: 'x' } })).extensions?.errorCode).toBe('FORBIDDEN');
    // Managers and admins keep full access.
    expect(ok(await f.manager.gql<{ project: Project }>(PROJECT, { id })).project.myAccess.level).toBe('full');

    // A write grant gives a viewer read only (000 §6).
    ok(
      await f.contributor.gql(ACCESS, {
        id,
        m: { groups: { markup: 'none' }, users: { [f.contributor.user.id]: 'full', [f.viewer.user.id]: 'write' } },
      }),
    );
    const seen = ok(await f.viewer.gql<{ project: Project }>(PROJECT, { id })).project;
    expect(seen.myAccess).toMatchObject({ level: 'read', accessRole: 'VIEWER', canEdit: false, restricted: true });

    // A group grant counts for the group's members.
    const group = ok(
      await f.admin<{ createUserGroup: { id: string } }>('mutation { createUserGroup(name: "Researchers") { id } }'),
    ).createUserGroup;
    ok(
      await f.admin('mutation($id: ID!, $u: [ID!]!) { setUserGroupMembers(id: $id, userIds: $u) { id } }', {
        id: group.id,
        u: [f.manager.user.id],
      }),
    );
    ok(
      await f.contributor.gql(ACCESS, {
        id,
        m: { groups: { markup: 'read', [group.id]: 'write' }, users: { [f.contributor.user.id]: 'full' } },
      }),
    );
    expect(ok(await f.viewer.gql<{ project: Project }>(PROJECT, { id })).project.myAccess.level).toBe('read');

    // Bad maps are refused and change nothing.
    expect(
      failure(await f.contributor.gql(ACCESS, { id, m: { groups: { everyone: 'read' } } })).extensions?.errorCode,
    ).toBe('BAD_USER_INPUT');
    expect(
      failure(await f.contributor.gql(ACCESS, { id, m: { groups: {}, users: { [f.contributor.user.id]: 'owner' } } }))
        .extensions?.errorCode,
    ).toBe('BAD_USER_INPUT');
    expect(
      failure(await f.contributor.gql(ACCESS, { id, m: { groups: { markup: 'none' }, users: {} } })).extensions
        ?.errorCode,
    ).toBe('INVALID_OPERATION');
    expect(failure(await f.viewer.gql(ACCESS, { id, m: { groups: {}, users: {} } })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(ok(await f.admin<{ project: Project }>(PROJECT, { id })).project.permissions.groups.markup).toBe('read');
  });

  it('restricts a contributor without a grant: NOT_FOUND, and no edits with a read grant', async () => {
    const id = (await createProject(f.admin, 'Admin only')).id;
    ok(await f.admin(ACCESS, { id, m: { groups: { markup: 'none' }, users: {} } }));
    expect(failure(await f.contributor.gql(PROJECT, { id })).extensions?.errorCode).toBe('NOT_FOUND');
    ok(await f.admin(ACCESS, { id, m: { groups: { markup: 'none' }, users: { [f.contributor.user.id]: 'read' } } }));
    expect(ok(await f.contributor.gql<{ project: Project }>(PROJECT, { id })).project.myAccess).toMatchObject({
      level: 'read',
      canEdit: false,
    });
    expect(failure(await f.contributor.gql(UPDATE, { id, input: { title: 'Edited' } })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
  });

  it('orders projects by rank and moves them between neighbours', async () => {
    const other = await contentFixture(f.server, f.mail, []);
    const [a, b, c] = [
      await createProject(other.admin, 'A'),
      await createProject(other.admin, 'B'),
      await createProject(other.admin, 'C'),
    ];
    expect([a.rank, b.rank, c.rank]).toEqual([0, 65536, 131072]);
    const titles = async () =>
      ok(await other.admin<{ projects: Array<{ title: string }> }>(PROJECTS)).projects.map((p) => p.title);
    expect(await titles()).toEqual(['A', 'B', 'C']);
    expect(
      ok(await other.admin<{ moveProject: { rank: number } }>(MOVE, { id: c.id, p: a.id, n: b.id })).moveProject.rank,
    ).toBe(32768);
    expect(await titles()).toEqual(['A', 'C', 'B']);
    ok(await other.admin(MOVE, { id: a.id, p: b.id }));
    expect(await titles()).toEqual(['C', 'B', 'A']);
    ok(await other.admin(MOVE, { id: a.id, n: c.id }));
    expect(await titles()).toEqual(['A', 'C', 'B']);
    expect(failure(await other.admin(MOVE, { id: a.id, p: a.id })).extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(failure(await other.admin(MOVE, { id: a.id, p: b.id, n: c.id })).extensions?.errorCode).toBe(
      'BAD_USER_INPUT',
    );
  });

  it('stars a project for the caller only', async () => {
    const id = (await createProject(f.contributor.gql, 'Starred one')).id;
    ok(await f.viewer.gql('mutation($id: ID!) { setStarred(type: PROJECT, id: $id, starred: true) }', { id }));
    expect(ok(await f.viewer.gql<{ project: Project }>(PROJECT, { id })).project.starred).toBe(true);
    expect(ok(await f.contributor.gql<{ project: Project }>(PROJECT, { id })).project.starred).toBe(false);
    ok(await f.viewer.gql('mutation($id: ID!) { setStarred(type: PROJECT, id: $id, starred: false) }', { id }));
    expect(ok(await f.viewer.gql<{ project: Project }>(PROJECT, { id })).project.starred).toBe(false);
  });

  it('allows at most 200 projects per workspace, not counting the trash', async () => {
    const other = await contentFixture(f.server, f.mail, []);
    const db = f.server.fieldbook.db.owner;
    await db('projects').insert(
      Array.from({ length: 199 }, (_, i) => ({ workspace_id: other.ws.id, title: `Filler ${i}`, rank: i })),
    );
    const last = await createProject(other.admin, 'Number 200');
    const over = failure(await other.admin(CREATE_PROJECT, { input: { title: 'Number 201' } }));
    expect(over.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'projects' });
    expect(over.message).toBe('A workspace can have at most 200 projects.');
    expect(Number((await db('projects').where({ workspace_id: other.ws.id }).count('* as n').first())?.n)).toBe(200);
    ok(await other.admin(DELETE, { id: last.id }));
    await createProject(other.admin, 'Room again');
  });
});
