import { createHash, createHmac } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundWebhook, InstallationContext, WebhookRequest } from '../../../extensions-sdk/src/server/index.ts';
import { createTestHost, type TestHost } from '../../../extensions-sdk/src/testing/index.ts';
import {
  loadSandboxedPlugin,
  SandboxLimitError,
  type SandboxedPlugin,
} from '../../../core/src/extensions/sandbox/index.ts';
import type { HostContext } from '../../../core/src/extensions/sandbox/host-calls.ts';
import { createLogger } from '../../../core/src/logger.ts';

const SECRET = 'a signing secret';
let plugin: SandboxedPlugin;
let atOnce: InboundWebhook<InstallationContext<string>>;
let later: InboundWebhook<InstallationContext<string>>;
const ctx = {
  plugin: { id: 'signature-checker', version: '1.0.0' },
  config: { secret: SECRET },
  publicUrl: 'http://localhost',
  log: { info() {}, warn() {}, error() {} },
} as unknown as HostContext & InstallationContext<string>;

beforeAll(async () => {
  plugin = await loadSandboxedPlugin({
    packageDir: join(import.meta.dirname, 'fixtures', 'intake', 'signature-checker'),
    serverEntry: './server.ts',
    logger: createLogger('silent'),
  });
  const webhooks = plugin.definition.server.webhooks as Array<InboundWebhook<InstallationContext<string>>>;
  atOnce = webhooks[0]!;
  later = webhooks[1]!;
});
afterAll(() => plugin?.isolate.dispose());

function signed(
  body: string,
  algorithm: string,
  encoding: 'hex' | 'base64',
  headers: Record<string, string> = {},
): WebhookRequest {
  return {
    headers: {
      'x-algorithm': algorithm,
      'x-encoding': encoding,
      'x-signature': createHmac(algorithm, SECRET).update(body).digest(encoding),
      ...headers,
    },
    rawBody: Buffer.from(body),
  };
}

/** A delivery's intake as the host runs it: verify, then the answer and the ids from the same request. */
async function intake(hook: InboundWebhook<InstallationContext<string>>, request: WebhookRequest) {
  const verdict = await hook.verify(request, ctx);
  if (!verdict.ok) return { verdict };
  return {
    verdict,
    answer: await hook.respond?.(request, ctx),
    eventId: hook.eventId(request),
    externalId: hook.externalId?.(request) ?? null,
  };
}

describe("a sandboxed plugin's webhook intake", () => {
  // Bodies of several blocks, with characters outside ASCII, as providers send them.
  const body = JSON.stringify({ text: 'Ünïcode ✓ and 🎉 '.repeat(40), n: 42 });

  for (const hook of ['at once', 'with a promise'] as const) {
    for (const algorithm of ['sha1', 'sha256', 'sha384', 'sha512', 'md5']) {
      it(`checks an ${algorithm} signature made by Node's crypto, verified ${hook}, and refuses one altered`, async () => {
        const webhook = hook === 'at once' ? atOnce : later;
        const encoding = algorithm === 'sha384' ? 'base64' : 'hex';
        const good = await intake(webhook, signed(body, algorithm, encoding, { 'x-account': 'acct-1' }));
        expect(good).toEqual({
          verdict: { ok: true },
          answer: null,
          eventId: `${algorithm}:${createHash(algorithm).update(body).digest('hex')}`,
          externalId: 'acct-1',
        });
        const altered = signed(body, algorithm, encoding);
        altered.rawBody = Buffer.from(body.replace('42', '43'));
        expect((await intake(webhook, altered)).verdict).toEqual({ ok: false, reason: `bad ${algorithm} signature` });
      });
    }
  }

  it("answers the plugin's reply from the same call, at once or with a promise", async () => {
    for (const webhook of [atOnce, later]) {
      const result = await intake(webhook, signed('{}', 'sha256', 'hex', { 'x-challenge': 'abc' }));
      expect(result.answer).toEqual({ body: { challenge: 'abc' } });
    }
  });

  it('keeps verifying correctly when many deliveries of both kinds arrive together', async () => {
    const requests = Array.from({ length: 60 }, (_, i) => ({
      hook: i % 2 ? later : atOnce,
      body: JSON.stringify({ i }),
      valid: i % 3 !== 0,
    }));
    const verdicts = await Promise.all(
      requests.map(({ hook, body: b, valid }) => {
        const request = signed(b, 'sha256', 'hex');
        const forged = {
          ...request,
          headers: {
            ...request.headers,
            'x-signature': createHmac('sha256', 'another secret').update(b).digest('hex'),
          },
        };
        return hook.verify(valid ? request : forged, ctx);
      }),
    );
    expect(verdicts.map((v) => v.ok)).toEqual(requests.map((r) => r.valid));
  });
});

describe('a verifier that spins past its CPU limit', () => {
  let runaway: SandboxedPlugin;
  let host: TestHost;
  let hook: InboundWebhook<InstallationContext<string>>;
  const delivery = (headers: Record<string, string>): WebhookRequest => ({ headers, rawBody: Buffer.from('{}') });

  beforeAll(async () => {
    runaway = await loadSandboxedPlugin({
      packageDir: join(import.meta.dirname, 'fixtures', 'intake', 'runaway-verifier'),
      serverEntry: './server.ts',
      logger: createLogger('silent'),
      limits: { cpuMs: 500 },
    });
    hook = runaway.definition.server.webhooks![0] as InboundWebhook<InstallationContext<string>>;
    host = await createTestHost({ plugins: [runaway.definition] });
  });
  afterAll(async () => {
    await host?.close();
    runaway?.isolate.dispose();
  });

  it('fails alone: the deliveries that arrived beside it are verified', async () => {
    // The spinning call is in the isolate first; the genuine ones wait behind it.
    const spinning = Promise.resolve(hook.verify(delivery({ 'x-spin': '1' }), ctx)).then(
      () => null,
      (err: unknown) => err,
    );
    const genuine = Array.from({ length: 5 }, () => hook.verify(delivery({ 'x-token': 'genuine' }), ctx));
    expect(await Promise.all(genuine)).toEqual(Array.from({ length: 5 }, () => ({ ok: true })));
    const err = await spinning;
    expect(err).toBeInstanceOf(SandboxLimitError);
    expect(err).toMatchObject({ limit: 'cpu' });
  });

  it('is answered 503 with Retry-After, which providers retry, and the next delivery is verified', async () => {
    const spun = await host.sendWebhook('/runaway-verifier/hook', '{}', { 'x-spin': '1', 'x-id': 'spun' });
    expect(spun.status).toBe(503);
    expect(spun.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await spun.json()).toEqual({
      error: 'The plugin runaway-verifier could not check this delivery within its limits; try again later.',
    });
    const genuine = await host.sendWebhook('/runaway-verifier/hook', '{}', { 'x-token': 'genuine', 'x-id': 'ok' });
    expect(genuine.status).toBe(200);
    const forged = await host.sendWebhook('/runaway-verifier/hook', '{}', { 'x-token': 'forged', 'x-id': 'no' });
    expect(forged.status).toBe(401);
  });
});
