import type Router from '@koa/router';
import type { WorkspacesDeps } from './deps.ts';
import { findWorkspace } from './directory.ts';
import { subdomainsSupported, workspaceAppUrl } from './urls.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /team-redirect/{teamId}/{path} (000 §2, 002 §2): sends the browser to `path` in that
 * workspace's app. Where workspaces have no subdomains (localhost, an IP address), the web app
 * answers the route itself and addresses the workspace by header from then on.
 */
export function mountTeamRedirect(router: Router, deps: WorkspacesDeps): void {
  router.get('/team-redirect/:teamId{/*path}', async (ctx, next) => {
    const teamId = ctx.params.teamId ?? '';
    const workspace = UUID.test(teamId) ? await findWorkspace(deps.app, teamId) : null;
    if (!workspace) {
      // A browser gets the web app's "Workspace not found" page; API clients get the error.
      if (ctx.accepts('json', 'html') === 'html') return next();
      ctx.status = 404;
      ctx.body = { errors: [{ message: 'That workspace was not found.', extensions: { errorCode: 'NOT_FOUND' } }] };
      return;
    }
    if (!subdomainsSupported(deps.config.publicUrl)) return next();
    // The rest of the path as the browser sent it, still percent-encoded.
    const path = ctx.path.slice(`/team-redirect/${teamId}`.length).replace(/^\/+/, '');
    ctx.redirect(`${workspaceAppUrl(deps.config, workspace, path)}${ctx.search}`);
  });
}
