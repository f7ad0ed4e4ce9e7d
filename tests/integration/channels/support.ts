import { afterAll, beforeAll, expect } from 'vitest';
import channels from '../../../modules/channels/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import type { Config } from '../../../core/src/config.ts';
import type { FieldbookModule, ModuleRef } from '../../../core/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { contentFixture, type ContentFixture, type Gql } from '../research/content-support.ts';

/** A Fieldbook with the channels module (and research, which owns the people data points link to). */
export async function startChannelsServer(
  overrides: Partial<Config> = {},
  extra: Array<FieldbookModule<string, readonly ModuleRef[], unknown>> = [],
): Promise<{ server: TestServer; mail: TestMailServer }> {
  const mail = await startMailServer();
  const server = await startTestServer(
    { smtpUrl: mail.url, ...overrides },
    { modules: [research, channels, ...extra] },
  );
  return { server, mail };
}

/** A workspace with a contributor and a viewer, and one channel of theirs, on a channels Fieldbook. */
export interface ChannelFixture extends ContentFixture {
  server: TestServer;
  mail: TestMailServer;
  channelId: string;
}

/**
 * Registers the test file's `beforeAll`/`afterAll` that start a channels Fieldbook once for the
 * file and create the channel named `channelName`; the returned object is filled in by the time
 * the tests run.
 */
export function useChannelFixture(channelName: string): ChannelFixture {
  const fixture = {} as ChannelFixture;
  beforeAll(async () => {
    Object.assign(fixture, await startChannelsServer());
    Object.assign(fixture, await contentFixture(fixture.server, fixture.mail, ['CONTRIBUTOR', 'VIEWER']));
    fixture.channelId = (await createChannel(fixture.contributor.gql, channelName)).id;
  });
  afterAll(async () => {
    await fixture.server?.close();
    await fixture.mail?.close();
  });
  return fixture;
}

export const CHANNEL = 'id name description dataPointCount weeklyDataPoints deletedAt';
export const CREATE_CHANNEL = `mutation($input: CreateChannelInput!) { createChannel(input: $input) { ${CHANNEL} } }`;

export async function createChannel(gql: Gql, name: string): Promise<{ id: string; name: string }> {
  const res = await gql<{ createChannel: { id: string; name: string } }>(CREATE_CHANNEL, { input: { name } });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data!.createChannel;
}

/** An API token of the person behind `token` in `workspaceId`. */
export async function apiToken(server: TestServer, token: string, workspaceId: string): Promise<string> {
  const res = await server.gql<{ createApiToken: { token: string } }>(
    'mutation($n: String!) { createApiToken(name: $n) { token } }',
    { n: 'Feedback push' },
    { token, workspace: workspaceId },
  );
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data!.createApiToken.token;
}

/** POSTs to a channels REST route with a bearer token (an API token or a session's). */
export async function post(
  server: TestServer,
  path: string,
  body: string,
  opts: { token: string; workspace?: string; type?: string },
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${opts.token}`,
      'content-type': opts.type ?? 'application/json',
      ...(opts.workspace ? { 'x-fieldbook-workspace': opts.workspace } : {}),
    },
    body,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

export interface ImportState {
  id: string;
  status: string;
  recordsRead: number;
  recordsCreated: number;
  recordsUpdated: number;
  recordsSkipped: number;
  recordsFailed: number;
  failures: Array<{ line: number | null; externalId: string | null; reason: string }>;
  error: string | null;
}

export const IMPORT =
  'id status recordsRead recordsCreated recordsUpdated recordsSkipped recordsFailed failures { line externalId reason } error';

export async function waitForImport(gql: Gql, id: string): Promise<ImportState> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await gql<{ channelImport: ImportState }>(`query($id: ID!) { channelImport(id: $id) { ${IMPORT} } }`, {
      id,
    });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const run = res.data!.channelImport;
    if (run.status === 'COMPLETED' || run.status === 'FAILED') return run;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
