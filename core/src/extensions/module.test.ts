import { graphql } from 'graphql';
import { describe, expect, it } from 'vitest';
import { assembleSchema } from '../graphql/schema.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { extensionsModule } from './module.ts';

const schema = assembleSchema([
  { typeDefs: 'scalar DateTime\nscalar JSON\ntype Query { release: String! }', resolvers: {} },
  ...[extensionsModule.definition.graphql!({} as Parameters<NonNullable<typeof extensionsModule.definition.graphql>>[0])].flat(),
]);

const QUERY = '{ pluginRemotes { name entry exposedModule } }';

function context(over: Partial<RequestContext>): RequestContext {
  return {
    viewer: null,
    workspace: null,
    membership: null,
    requireViewer() {
      if (!this.viewer) throw new Error('Please sign in to continue.');
      return this.viewer;
    },
    ...over,
  } as RequestContext;
}

const viewer = { userId: 'u1', email: 'a@example.com', name: 'A', sessionId: 's1', apiTokenId: null };
const workspace = { id: 'w1', name: 'Acme', subdomain: 'acme', region: 'US_B' };

describe('pluginRemotes', () => {
  it('lists no remotes while no plugin is installed', async () => {
    const res = await graphql({
      schema,
      source: QUERY,
      contextValue: context({ viewer, workspace, membership: { role: 'VIEWER', workspaceAdmin: false, effectiveRole: 'VIEWER', groupIds: [] } }),
    });
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ pluginRemotes: [] });
  });

  it('asks to sign in first', async () => {
    const res = await graphql({ schema, source: QUERY, contextValue: context({}) });
    expect(res.errors?.[0]?.message).toBe('Please sign in to continue.');
  });

  it('gives people outside the workspace none', async () => {
    const res = await graphql({ schema, source: QUERY, contextValue: context({ viewer, workspace }) });
    expect(res.data).toEqual({ pluginRemotes: [] });
  });
});
