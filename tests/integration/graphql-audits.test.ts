import { serverAudits, type AuditResult } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The GraphQL-over-HTTP conformance audits that graphql-http ships, run against the real
 * endpoint. Every MUST is a test of its own; so is every SHOULD we keep to.
 */
let server: TestServer | undefined;
const audits = serverAudits({
  url: () => {
    if (!server) throw new Error('the test server is not started');
    return `${server.url}/api/graphql`;
  },
  fetchFn: fetch,
});

// Every SHOULD audit is asserted too; none is left out. (graphql-http 1.x ships its "SHOULD use
// 401 or 403 status codes when the request is not permitted" audit commented out, so it does not
// run.) The MAY audits are optional and not asserted.

async function expectPasses(fn: () => Promise<AuditResult>): Promise<void> {
  const result = await fn();
  if (result.status !== 'ok') {
    const body = await result.response.text().catch(() => '<unreadable body>');
    expect.fail(`${result.reason}\nstatus ${result.response.status}, body: ${body.slice(0, 500)}`);
  }
}

describe('GraphQL over HTTP conformance (/api/graphql)', () => {
  beforeAll(async () => {
    // Some audits send `__type` without signing in; introspection is opened to them here, as an
    // installation can with GRAPHQL_INTROSPECTION=true.
    server = await startTestServer({ anonymousIntrospection: true });
  });
  afterAll(() => server?.close());

  it('has the MUST and SHOULD audits to run', () => {
    expect(audits.filter((a) => a.name.startsWith('MUST ')).length).toBeGreaterThanOrEqual(10);
    expect(audits.filter((a) => a.name.startsWith('SHOULD ')).length).toBeGreaterThanOrEqual(15);
  });

  for (const audit of audits.filter((a) => a.name.startsWith('MUST '))) {
    it(audit.name, () => expectPasses(audit.fn));
  }

  for (const audit of audits.filter((a) => a.name.startsWith('SHOULD '))) {
    it(audit.name, () => expectPasses(audit.fn));
  }
});
