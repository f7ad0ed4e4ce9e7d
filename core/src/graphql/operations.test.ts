import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../kernel/request-context.ts';
import { operations } from './operations.ts';

describe('operations', () => {
  it('hands each operation the request context and the field arguments, never the parent', async () => {
    const ctx = { release: 'r1' } as RequestContext;
    const resolvers = operations({ echo: (c, args) => ({ release: c.release, args }) });
    expect(await resolvers.echo!({ parent: true }, { id: 'x' }, ctx)).toEqual({ release: 'r1', args: { id: 'x' } });
  });
});
