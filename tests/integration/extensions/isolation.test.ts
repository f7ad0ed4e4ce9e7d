import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluginLogger } from '../../../core/src/extensions/runtime/redact.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

describe('plugins that fail', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      plugins: {
        packages: [],
        dir: join(import.meta.dirname, 'fixtures', 'plugins'),
        maximumExtensions: null,
        env: {},
      },
    });
  });
  afterAll(() => server?.close());

  it('are logged and left out or marked failed, and Fieldbook runs on with the others', async () => {
    const { catalog } = (
      server.fieldbook.services.extensions as {
        host: {
          catalog: {
            plugins: Array<{ id: string; state: string; problem: string | null }>;
            broken: Array<{ source: string; problem: string }>;
          };
        };
      }
    ).host;
    expect(catalog.broken.map((b) => b.problem)).toEqual(['this plugin is broken at import']);
    expect(catalog.plugins.map((p) => [p.id, p.state])).toEqual([
      ['failing-setup', 'failed'],
      ['healthy', 'ready'],
    ]);
    expect(catalog.plugins[0]!.problem).toBe('Its setup failed: cannot start');
    expect((await fetch(`${server.url}/ping`)).status).toBe(200);
  });
});

describe('plugin logs', () => {
  it('name the plugin and never carry its secrets', () => {
    const lines: Array<{ fields: object; message: string }> = [];
    const child = {
      info: (fields: object, message: string) => lines.push({ fields, message }),
      warn: () => undefined,
      error: () => undefined,
    };
    const logger = { child: () => child } as unknown as Parameters<typeof pluginLogger>[0];
    const log = pluginLogger(logger, 'slack', () => ['xoxb-secret-token', 'abc']);
    log.info('calling with xoxb-secret-token', {
      headers: { authorization: 'Bearer xoxb-secret-token' },
      short: 'abc',
    });
    expect(lines).toEqual([
      { fields: { headers: { authorization: 'Bearer [redacted]' }, short: 'abc' }, message: 'calling with [redacted]' },
    ]);
  });
});
