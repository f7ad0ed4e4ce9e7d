import { afterAll, beforeAll, expect } from 'vitest';
import { subscriberQueue } from '../../../core/src/jobs/events.ts';
import { COMMENT_CREATED_EVENT } from '../../../modules/research/src/comments/created.ts';
import { FOLLOW_ACTIVITY_EVENT } from '../../../modules/research/src/follows/fanout.ts';
import { queuesIdle } from '../../support/jobs.ts';
import research from '../../../modules/research/src/index.ts';
import {
  addMember,
  createWorkspaceWithAdmin,
  gqlAs,
  type MemberFixture,
  type WorkspaceFixture,
} from '../../support/factories.ts';
import type { GqlResult, TestServer } from '../../support/server.ts';
import { startTestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';

/** A Fieldbook with the research module and a real SMTP server, for one test file. */
export async function startResearchServer(): Promise<{ server: TestServer; mail: TestMailServer }> {
  const mail = await startMailServer();
  const server = await startTestServer({ smtpUrl: mail.url }, { modules: [research] });
  return { server, mail };
}

export type Gql = ReturnType<typeof gqlAs>;

/** A workspace with an admin and one member of each product role. */
export interface ContentFixture {
  ws: WorkspaceFixture;
  admin: Gql;
  manager: MemberFixture & { gql: Gql };
  contributor: MemberFixture & { gql: Gql };
  viewer: MemberFixture & { gql: Gql };
}

export async function contentFixture(
  server: TestServer,
  mail: TestMailServer,
  roles: Array<'MANAGER' | 'CONTRIBUTOR' | 'VIEWER'> = ['MANAGER', 'CONTRIBUTOR', 'VIEWER'],
): Promise<ContentFixture> {
  const ws = await createWorkspaceWithAdmin(server, mail);
  const member = async (role: 'MANAGER' | 'CONTRIBUTOR' | 'VIEWER') => {
    if (!roles.includes(role)) return undefined as never;
    const m = await addMember(server, mail, ws, role);
    return { ...m, gql: gqlAs(server, m.accessToken, ws.id) };
  };
  return {
    ws,
    admin: gqlAs(server, ws.admin.accessToken, ws.id),
    manager: await member('MANAGER'),
    contributor: await member('CONTRIBUTOR'),
    viewer: await member('VIEWER'),
  };
}

/** A research Fieldbook with its mail server, a workspace of every role and, when asked, a project. */
export interface ResearchFixture extends ContentFixture {
  server: TestServer;
  mail: TestMailServer;
  /** The admin's project named when the fixture was asked for (empty when none was). */
  projectId: string;
}

/**
 * Registers the enclosing block's `beforeAll`/`afterAll` that start a research Fieldbook once,
 * create the workspace with a member of each role and, given `projectTitle`, the admin's project;
 * the returned object is filled in by the time the tests run.
 */
export function useResearchFixture(projectTitle?: string): ResearchFixture {
  const fixture = { projectId: '' } as ResearchFixture;
  beforeAll(async () => {
    Object.assign(fixture, await startResearchServer());
    Object.assign(fixture, await contentFixture(fixture.server, fixture.mail));
    if (projectTitle !== undefined) fixture.projectId = (await createProject(fixture.admin, projectTitle)).id;
  });
  afterAll(async () => {
    await fixture.server?.close();
    await fixture.mail?.close();
  });
  return fixture;
}

/** The data of an answer, failing with the errors when there are any. */
export function ok<T>(res: GqlResult<T>): T {
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data!;
}

/** The one error of an answer. */
export function failure(res: GqlResult<unknown>) {
  expect(res.errors, JSON.stringify(res.data)).toHaveLength(1);
  return res.errors![0]!;
}

export const PROJECT_FIELDS =
  'id title status color icon readme enabledSections rank folderId permissions starred myAccess { level accessRole canEdit canManageAccess canDelete restricted }';
export const CREATE_PROJECT = `mutation($input: CreateProjectInput!) { createProject(input: $input) { ${PROJECT_FIELDS} } }`;

export async function createProject(
  gql: Gql,
  title: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; rank: number }> {
  return ok(await gql<{ createProject: { id: string; rank: number } }>(CREATE_PROJECT, { input: { title, ...extra } }))
    .createProject;
}

/** A TipTap document of paragraphs. */
export const doc = (...paragraphs: string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: text ? [{ type: 'text', text }] : [] })),
});

/** The queues that write notifications after a change commits (comments, followed activity). */
export const NOTIFICATION_QUEUES = [
  subscriberQueue(COMMENT_CREATED_EVENT, 'notify'),
  subscriberQueue(FOLLOW_ACTIVITY_EVENT, 'notify-followers'),
];

/** Waits until every committed change has written its notifications. */
export const notificationsSettled = (server: TestServer): Promise<void> => queuesIdle(server, NOTIFICATION_QUEUES);
