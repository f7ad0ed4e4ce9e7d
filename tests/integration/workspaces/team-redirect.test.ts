import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subdomainsSupported, workspaceAppUrl } from '../../../core/src/workspaces/urls.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { CREATE_WORKSPACE, createWorkspaceWithAdmin, uniqueTeamName } from '../../support/factories.ts';
import { startIdentityServer, stopIdentityServer } from '../identity/support.ts';

const ROOT = new URL('https://fieldbook.example.com');

describe('workspace app URLs', () => {
  it('uses subdomains of PUBLIC_URL where they exist, and /team-redirect on localhost or an IP', () => {
    const ws = { id: '2f1b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', subdomain: 'acme' };
    expect(workspaceAppUrl({ publicUrl: ROOT, rootHost: ROOT.host }, ws, '/home')).toBe(
      'https://acme.fieldbook.example.com/home',
    );
    const local = new URL('http://localhost:3000');
    expect(workspaceAppUrl({ publicUrl: local, rootHost: local.host }, ws, 'home')).toBe(
      `http://localhost:3000/team-redirect/${ws.id}/home`,
    );
    expect(subdomainsSupported(new URL('http://127.0.0.1:3000'))).toBe(false);
    expect(subdomainsSupported(new URL('http://[::1]:3000'))).toBe(false);
    expect(subdomainsSupported(new URL('http://fieldbook.internal:8080'))).toBe(true);
  });
});

/** A confirmed person with a session, made directly: mailed links would point at PUBLIC_URL, not this server. */
async function signedInPerson(server: TestServer): Promise<{ id: string; accessToken: string }> {
  const [user] = await server.fieldbook.db
    .owner('users')
    .insert({ email: `${randomUUID()}@example.com`, name: 'Rhea Redirect', email_confirmed_at: new Date() })
    .returning('id');
  const identity = server.fieldbook.services.identity as {
    issueSession(userId: string): Promise<{ accessToken: string }>;
  };
  const { accessToken } = await identity.issueSession((user as { id: string }).id);
  return { id: (user as { id: string }).id, accessToken };
}

describe('/team-redirect/{teamId}/{path} (000 §2, 002 §2)', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let ws: { id: string; subdomain: string; admin: { accessToken: string } };
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer({ publicUrl: ROOT, rootHost: ROOT.host }));
    const admin = await signedInPerson(server);
    const res = await server.gql<{ createWorkspace: { workspace: { id: string; subdomain: string } } }>(
      CREATE_WORKSPACE,
      { input: { method: 'AUTH0', teamName: uniqueTeamName() } },
      { token: admin.accessToken },
    );
    ws = { ...res.data!.createWorkspace.workspace, admin };
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  const get = (path: string) => fetch(`${server.url}${path}`, { redirect: 'manual' });

  it('redirects to the path in the workspace app, keeping the query', async () => {
    const res = await get(`/team-redirect/${ws.id}/projects/all-projects?sort=recent`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(
      `https://${ws.subdomain}.fieldbook.example.com/projects/all-projects?sort=recent`,
    );
    const bare = await get(`/team-redirect/${ws.id}`);
    expect(bare.headers.get('location')).toBe(`https://${ws.subdomain}.fieldbook.example.com/`);
  });

  it('answers an unknown team, or a team id that is no UUID, with 404', async () => {
    expect((await get(`/team-redirect/${randomUUID()}/home`)).status).toBe(404);
    expect((await get('/team-redirect/acme/home')).status).toBe(404);
  });

  it('gives the subdomain app as redirectUrl when a workspace is created', async () => {
    const res = await server.gql<{
      createWorkspace: { redirectUrl: string; workspace: { subdomain: string; url: string } };
    }>(CREATE_WORKSPACE, { input: { method: 'AUTH0', teamName: uniqueTeamName() } }, { token: ws.admin.accessToken });
    const { redirectUrl, workspace } = res.data!.createWorkspace;
    expect(redirectUrl).toBe(`https://${workspace.subdomain}.fieldbook.example.com/home`);
    expect(workspace.url).toBe(`https://${workspace.subdomain}.fieldbook.example.com/`);
  });

  it('resolves the workspace from the Host subdomain of PUBLIC_URL', async () => {
    // fetch() always sends the URL's own host, so this request is made with node:http.
    const body = JSON.stringify({ query: '{ currentWorkspace { id } }' });
    const answer = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${server.url}/api/graphql`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            host: `${ws.subdomain}.fieldbook.example.com`,
            authorization: `Bearer ${ws.admin.accessToken}`,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(JSON.parse(answer)).toEqual({ data: { currentWorkspace: { id: ws.id } } });
  });
});

describe('/team-redirect on localhost', () => {
  let server: TestServer;
  let mail: TestMailServer;
  beforeAll(async () => {
    ({ server, mail } = await startIdentityServer());
  });
  afterAll(() => stopIdentityServer({ server, mail }));

  it('leaves the route to the web app, which addresses the workspace itself', async () => {
    const ws = await createWorkspaceWithAdmin(server, mail);
    const res = await fetch(`${server.url}/team-redirect/${ws.id}/home`, { redirect: 'manual' });
    expect(res.status).not.toBe(302);
    expect(res.status).not.toBe(404);
    expect((await fetch(`${server.url}/team-redirect/${randomUUID()}/home`, { redirect: 'manual' })).status).toBe(404);
  });

  it('hands an unknown team to the web app when a browser asks, so people see its not-found page', async () => {
    const res = await fetch(`${server.url}/team-redirect/${randomUUID()}/home`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(res.status).not.toBe(404);
    expect(await res.text()).not.toContain('NOT_FOUND');
  });
});
