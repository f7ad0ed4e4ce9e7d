import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READABLE_WITHOUT_ROW_SECURITY } from '../../core/src/db/privileges.ts';
import { withTenant } from '../../core/src/db/tenancy.ts';
import { once } from '../../core/src/jobs/queue.ts';
import { WEBHOOK_QUEUE } from '../../core/src/extensions/webhooks/intake.ts';
import { definePlugin } from '../../extensions-sdk/src/server/index.ts';
import research from '../../modules/research/src/index.ts';
import { createWorkspaceWithAdmin, gqlAs, type WorkspaceFixture } from '../support/factories.ts';
import { startMailServer, type TestMailServer } from '../support/smtp.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { STRONG_PASSWORD, uniqueEmail } from './identity/support.ts';
import { createProject } from './research/content-support.ts';

/**
 * What the request role (`fieldbook_app`) can reach, tried as an attacker holding its connection:
 * secrets of every workspace that no request needs to read stay out of its reach, and the jobs it
 * may queue cannot make a worker act on another workspace's data.
 */
const SECRET = 'relay-signing-secret-123';
const sign = (body: string) => createHmac('sha256', SECRET).update(body).digest('hex');

/** What the plugin's webhook handler was given, and for which workspace. */
const handled: Array<{ workspaceId: string; body: string }> = [];

const relay = definePlugin({
  id: 'relay',
  name: 'Relay',
  version: '1.0.0',
  sdk: '^1',
  permissions: [],
  server: {
    webhooks: [
      {
        path: '/relay/webhook',
        verify: (req) =>
          req.headers['x-relay-signature'] === sign(req.rawBody.toString())
            ? { ok: true }
            : { ok: false, reason: 'bad signature' },
        eventId: (req) => (JSON.parse(req.rawBody.toString()) as { id: string }).id,
        externalId: (req) => (JSON.parse(req.rawBody.toString()) as { account: string }).account,
        handle: async (ctx, event) => {
          handled.push({ workspaceId: ctx.installation.workspaceId, body: event.body });
        },
      },
    ],
  },
});

let server: TestServer;
let mail: TestMailServer;
let a: WorkspaceFixture;
let b: WorkspaceFixture;
const app = () => server.fieldbook.db.app;
const owner = () => server.fieldbook.db.owner;

const waitFor = async <T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> => {
  for (let i = 0; i < 150; i++) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  return read();
};

beforeAll(async () => {
  mail = await startMailServer();
  server = await startTestServer(
    { smtpUrl: mail.url },
    { modules: [research], plugins: [relay], discoverPlugins: false },
  );
  a = await createWorkspaceWithAdmin(server, mail);
  b = await createWorkspaceWithAdmin(server, mail);
  for (const [ws, account] of [
    [a, 'acct-a'],
    [b, 'acct-b'],
  ] as const) {
    const res = await gqlAs(
      server,
      ws.admin.accessToken,
      ws.id,
    )('mutation { installPlugin(pluginId: "relay") { id } }');
    expect(res.errors).toBeUndefined();
    await owner()('plugin_installations')
      .where({ workspace_id: ws.id, plugin_id: 'relay' })
      .update({ external_id: account });
  }
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

describe('secrets the request role cannot read', () => {
  it('reads no table without row-level security that was not reviewed for it', async () => {
    const { rows } = await owner().raw(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm') and not c.relrowsecurity
         and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                     and has_column_privilege('fieldbook_app', c.oid, a.attnum, 'SELECT'))
       order by 1`,
    );
    const unreviewed = rows
      .map((r: { name: string }) => r.name)
      .filter((name: string) => !(name in READABLE_WITHOUT_ROW_SECURITY));
    expect(unreviewed).toEqual([]);
    // The private schema is not open to it at all.
    const open = await owner().raw(
      `select has_schema_privilege('fieldbook_app', 'fieldbook_private', 'USAGE') as usage`,
    );
    expect(open.rows[0].usage).toBe(false);
  });

  it('holds no password hash: the hashes live where it has no access, and signing in still works', async () => {
    const hashes = await owner().raw('select password_hash from fieldbook_private.password_hashes where user_id = ?', [
      a.admin.user.id,
    ]);
    expect(hashes.rows[0].password_hash).toMatch(/^scrypt\$/);
    const seen = await app()('users').where({ id: a.admin.user.id }).first('password_hash');
    expect(seen.password_hash).not.toMatch(/scrypt/);
    // A password is known to be set, which is all requests need to know.
    expect(seen.password_hash).not.toBeNull();
    await expect(app().raw('select password_hash from fieldbook_private.password_hashes')).rejects.toThrow(
      /permission denied/,
    );

    const signIn = await server.gql<{ signIn: { accessToken: string } }>(
      'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { accessToken } }',
      {
        e: a.admin.user.email,
        p: STRONG_PASSWORD,
      },
    );
    expect(signIn.errors).toBeUndefined();
    const wrong = await server.gql(
      'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { accessToken } }',
      { e: a.admin.user.email, p: 'Not-The-Password-1' },
    );
    expect(wrong.errors?.[0]?.extensions?.errorCode).toBe('UNAUTHENTICATED');
  });

  it('cannot read API token hashes, while the tokens still sign requests in', async () => {
    const as = gqlAs(server, a.admin.accessToken, a.id);
    const created = await as<{ createApiToken: { token: string } }>(
      'mutation { createApiToken(name: "CI") { token } }',
    );
    expect(created.errors).toBeUndefined();
    const token = created.data!.createApiToken.token;
    for (const column of ['secret_hash', '*']) {
      await expect(
        withTenant(app(), { workspaceId: a.id }, (trx) => trx.raw(`select ${column} from api_tokens`)),
        column,
      ).rejects.toThrow(/permission denied/);
    }
    const me = await server.gql<{ me: { id: string } }>('{ me { id } }', {}, { token, workspace: a.id });
    expect(me.errors).toBeUndefined();
    expect(me.data!.me.id).toBe(a.admin.user.id);
    // The lookup that stands in for the column answers only to the token's own secret.
    const guessed = await withTenant(app(), { workspaceId: a.id }, (trx) =>
      trx.raw('select * from api_token_for_secret(?, ?)', [a.id, 'f'.repeat(64)]),
    );
    expect(guessed.rows).toEqual([]);
  });

  it('cannot read refresh token hashes, while sessions still refresh and a reused token still ends its session', async () => {
    for (const sql of [
      'select refresh_token_hash from sessions',
      'select * from sessions',
      'select token_hash from retired_refresh_tokens',
    ]) {
      await expect(app().raw(sql), sql).rejects.toThrow(/permission denied/);
    }
    const REFRESH = 'mutation($t: String!) { refreshSession(refreshToken: $t) { refreshToken } }';
    const first = await server.gql<{ refreshSession: { refreshToken: string } }>(REFRESH, { t: b.admin.refreshToken });
    expect(first.errors).toBeUndefined();
    const next = first.data!.refreshSession.refreshToken;
    // The rotated-out token again: refused, and the session it belonged to ends.
    expect((await server.gql(REFRESH, { t: b.admin.refreshToken })).errors?.[0]?.extensions?.errorCode).toBe(
      'UNAUTHENTICATED',
    );
    expect((await server.gql(REFRESH, { t: next })).errors?.[0]?.extensions?.errorCode).toBe('UNAUTHENTICATED');
  });

  it('cannot read the hashes of emailed links and codes, while links and codes still work', async () => {
    for (const sql of ['select secret_hash from email_challenges', 'select * from email_challenges']) {
      await expect(app().raw(sql), sql).rejects.toThrow(/permission denied/);
    }
    // A one-time code: a wrong one is refused, the right one signs in.
    const email = uniqueEmail('code');
    const sent = await server.gql<{ sendConfirmationEmail: { codeChallenge: string } }>(
      'mutation($e: String!) { sendConfirmationEmail(input: { email: $e, recaptchaToken: "token", useOneTimeCodeFlow: true }) { codeChallenge } }',
      { e: email },
    );
    expect(sent.errors).toBeUndefined();
    const codeChallenge = sent.data!.sendConfirmationEmail.codeChallenge;
    const code = /\b(\d{6})\b/.exec((await mail.waitForMail(email)).text)![1]!;
    const CONFIRM =
      'mutation($c: ID!, $k: String!) { confirmEmail(input: { method: ONE_TIME_CODE, codeChallenge: $c, code: $k }) { accessToken } }';
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await server.gql(CONFIRM, { c: codeChallenge, k: wrong })).errors?.[0]?.extensions?.field).toBe('code');
    expect((await server.gql(CONFIRM, { c: codeChallenge, k: code })).errors).toBeUndefined();
  });

  it("cannot read any workspace's raw webhook deliveries, only add them", async () => {
    const body = JSON.stringify({ id: 'evt-b-1', account: 'acct-b', text: 'Beta customer said something private' });
    expect(
      (
        await fetch(`${server.url}/relay/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-relay-signature': sign(body) },
          body,
        })
      ).status,
    ).toBe(200);
    await waitFor(
      async () => handled.length,
      (n) => n > 0,
    );
    expect(handled).toEqual([{ workspaceId: b.id, body }]);
    for (const column of ['body', 'headers', '*']) {
      await expect(app().raw(`select ${column} from plugin_webhook_events`), column).rejects.toThrow(
        /permission denied/,
      );
    }
    // What the intake itself needs (ids, to store once and queue) stays readable.
    const ids = await app()('plugin_webhook_events')
      .where({ event_id: 'evt-b-1' })
      .select('id', 'plugin_id', 'installation_id');
    expect(ids).toHaveLength(1);
  });
});

describe('jobs the request role queues', () => {
  it("cannot make the webhook worker hand another workspace's delivery to its own installation", async () => {
    const body = JSON.stringify({ id: 'evt-b-2', account: 'acct-b', text: 'Another private message' });
    await fetch(`${server.url}/relay/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-relay-signature': sign(body) },
      body,
    });
    await waitFor(
      async () => handled.length,
      (n) => n >= 2,
    );
    const event = await owner()('plugin_webhook_events').where({ event_id: 'evt-b-2' }).first('id');
    const mine = await owner()('plugin_installations').where({ workspace_id: a.id, plugin_id: 'relay' }).first('id');
    // The attacker marks the delivery unhandled again and queues it for workspace A's installation.
    await owner()('plugin_webhook_events').where({ id: event.id }).update({ handled_at: null });
    const jobId = await withTenant(app(), { workspaceId: a.id }, (trx) =>
      server.fieldbook.jobs.queue.send(
        WEBHOOK_QUEUE,
        { eventRowId: event.id, workspaceId: a.id, installationId: mine.id, byAccount: false },
        { trx },
      ),
    );
    expect(jobId).toBeTruthy();
    const state = await waitFor(
      async () =>
        (await owner().raw('select state from pgboss.job where id = ?', [jobId])).rows[0]?.state as string | undefined,
      (s) => s === 'completed' || s === 'failed',
    );
    expect(state).toBe('completed');
    expect(handled.filter((h) => h.workspaceId === a.id)).toEqual([]);
  });

  it("cannot claim another workspace's job effect ahead of its job, which still applies it once", async () => {
    const key = `project-export:${randomUUID()}`;
    // As workspace A, try to record the effect that workspace B's job will look for.
    await withTenant(app(), { workspaceId: a.id }, (trx) => once(trx, key, 'test.effects', async () => undefined));
    let applied = 0;
    const run = () =>
      withTenant(app(), { workspaceId: b.id }, (trx) => once(trx, key, 'test.effects', async () => void applied++));
    expect(await run()).toEqual({ applied: true });
    expect(await run()).toEqual({ applied: false });
    expect(applied).toBe(1);
    // Neither workspace sees the other's record.
    const seen = await withTenant(app(), { workspaceId: a.id }, (trx) =>
      trx('job_effects').where({ key }).select('workspace_id'),
    );
    expect(seen).toEqual([{ workspace_id: a.id }]);
  });
});

describe('file paths the request role writes', () => {
  it('cannot make an export download serve a file outside the exports folder (the secret key, say)', async () => {
    const outside = join(mkdtempSync(join(tmpdir(), 'fieldbook-outside-')), 'secret.key');
    writeFileSync(outside, 'the server secret');
    const project = await createProject(gqlAs(server, a.admin.accessToken, a.id), 'Exported');
    const id = randomUUID();
    await withTenant(app(), { workspaceId: a.id }, (trx) =>
      trx('project_transfers').insert({
        id,
        workspace_id: a.id,
        project_id: project.id,
        kind: 'EXPORT',
        status: 'COMPLETED',
        progress: 100,
        file_path: outside,
        created_by: a.admin.user.id,
      }),
    );
    const res = await fetch(`${server.url}/api/exports/${id}`, {
      headers: { authorization: `Bearer ${a.admin.accessToken}`, 'x-fieldbook-workspace': a.id },
    });
    expect(await res.text()).not.toContain('the server secret');
    expect(res.status).not.toBe(200);
  });
});
