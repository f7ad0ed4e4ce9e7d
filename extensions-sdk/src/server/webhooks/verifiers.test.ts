import { describe, expect, it } from 'vitest';
import {
  signIntercomRequest,
  signSlackRequest,
  signStripeRequest,
  signZendeskRequest,
  signZoomRequest,
  type SignedHeaders,
} from '../../testing/signers.ts';
import {
  verifyIntercomRequest,
  verifySlackRequest,
  verifyStripeRequest,
  verifyZendeskRequest,
  verifyZoomRequest,
  type VerifyOptions,
  type WebhookRequest,
} from './index.ts';

const NOW_SECONDS = 1_700_000_000;
const clock: VerifyOptions = { now: () => NOW_SECONDS * 1000 };

/** What the shared rejection cases need to know about one provider. */
interface Provider {
  name: string;
  secret: string;
  verify(req: WebhookRequest, secret: string, opts?: VerifyOptions): { ok: boolean; reason?: string };
  sign(body: string, secret: string, timestamp: number): SignedHeaders;
  /** A body as the provider would send it at `timestamp` (Intercom dates its notifications inside). */
  body(timestamp: number): string;
  signatureHeader: string;
  /** The request without the time it was sent, however this provider carries it. */
  unstamped(req: WebhookRequest, secret: string): WebhookRequest;
  malformedSignatures: string[];
}

const notification = (timestamp: number) =>
  JSON.stringify({
    type: 'notification_event',
    topic: 'conversation.user.created',
    id: 'notif_1',
    created_at: timestamp,
    data: { item: { id: '7' } },
  });
const stripeEvent = () =>
  JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.paid', data: { object: { id: 'in_1' } } });

const providers: Provider[] = [
  {
    name: 'Slack',
    secret: 'slack-signing-secret',
    verify: verifySlackRequest,
    sign: (body, secret, timestamp) => signSlackRequest(body, secret, { timestamp }),
    body: () => 'token=abc&team_id=T1&command=%2Ffieldbook&text=interview+notes',
    signatureHeader: 'x-slack-signature',
    unstamped: (req) => withHeader(req, 'x-slack-request-timestamp', undefined),
    malformedSignatures: ['v1=' + 'a'.repeat(64), 'v0=' + 'g'.repeat(64), 'v0=' + 'a'.repeat(63), 'a'.repeat(64)],
  },
  {
    name: 'Zoom',
    secret: 'zoom-secret-token',
    verify: verifyZoomRequest,
    sign: (body, secret, timestamp) => signZoomRequest(body, secret, { timestamp }),
    body: () => JSON.stringify({ event: 'recording.completed', payload: { object: { id: 123 } } }),
    signatureHeader: 'x-zm-signature',
    unstamped: (req) => withHeader(req, 'x-zm-request-timestamp', undefined),
    malformedSignatures: ['v0=' + 'z'.repeat(64), 'v0=' + 'a'.repeat(66), 'sha256=' + 'a'.repeat(64)],
  },
  {
    name: 'Zendesk',
    secret: 'zendesk-signing-secret',
    verify: verifyZendeskRequest,
    sign: (body, secret, timestamp) => signZendeskRequest(body, secret, { timestamp }),
    body: () => JSON.stringify({ type: 'zen:event-type:ticket.created', detail: { id: '35436' } }),
    signatureHeader: 'x-zendesk-webhook-signature',
    unstamped: (req) => withHeader(req, 'x-zendesk-webhook-signature-timestamp', undefined),
    malformedSignatures: ['not base64 at all', 'c2hvcnQ=', 'a'.repeat(64)],
  },
  {
    name: 'Intercom',
    secret: 'intercom-client-secret',
    verify: verifyIntercomRequest,
    sign: (body, secret) => signIntercomRequest(body, secret),
    body: notification,
    signatureHeader: 'x-hub-signature',
    unstamped: (_req, secret) => {
      const body = JSON.stringify({ type: 'notification_event', topic: 'conversation.user.created', id: 'notif_1' });
      return { headers: signIntercomRequest(body, secret), rawBody: Buffer.from(body) };
    },
    malformedSignatures: ['sha256=' + 'a'.repeat(64), 'sha1=' + 'a'.repeat(39), 'a'.repeat(40)],
  },
  {
    name: 'Stripe',
    secret: 'whsec_test_secret',
    verify: verifyStripeRequest,
    sign: (body, secret, timestamp) => signStripeRequest(body, secret, { timestamp }),
    body: stripeEvent,
    signatureHeader: 'stripe-signature',
    unstamped: (req) => {
      const header = (req.headers['stripe-signature'] ?? '')
        .split(',')
        .filter((part) => !part.startsWith('t='))
        .join(',');
      return withHeader(req, 'stripe-signature', header);
    },
    malformedSignatures: ['v1=' + 'a'.repeat(64), 't=soon,v1=' + 'a'.repeat(64), `t=${NOW_SECONDS}`, 'garbage'],
  },
];

function signedRequest(provider: Provider, timestamp = NOW_SECONDS, secret = provider.secret): WebhookRequest {
  const body = provider.body(timestamp);
  return { headers: provider.sign(body, secret, timestamp), rawBody: Buffer.from(body, 'utf8') };
}

function withHeader(req: WebhookRequest, name: string, value: string | undefined): WebhookRequest {
  return { ...req, headers: { ...req.headers, [name]: value } };
}

describe.each(providers)('$name webhook verification', (provider) => {
  const verify = (req: WebhookRequest, opts: VerifyOptions = clock, secret = provider.secret) =>
    provider.verify(req, secret, opts);

  it('accepts a correctly signed request', () => {
    expect(verify(signedRequest(provider))).toMatchObject({ ok: true });
  });

  it('accepts a request signed up to the edge of the 300-second window, either side', () => {
    expect(verify(signedRequest(provider, NOW_SECONDS - 300)).ok).toBe(true);
    expect(verify(signedRequest(provider, NOW_SECONDS + 300)).ok).toBe(true);
  });

  it('refuses a request without its signature header', () => {
    const verdict = verify(withHeader(signedRequest(provider), provider.signatureHeader, undefined));
    expect(verdict).toEqual({ ok: false, reason: expect.stringContaining(provider.signatureHeader) });
    expect(verify(withHeader(signedRequest(provider), provider.signatureHeader, '  ')).ok).toBe(false);
  });

  it('refuses a request that does not say when it was sent', () => {
    const verdict = verify(provider.unstamped(signedRequest(provider), provider.secret));
    expect(verdict).toEqual({ ok: false, reason: expect.stringMatching(/timestamp|created_at|t=/) });
  });

  it('refuses malformed signatures', () => {
    for (const signature of provider.malformedSignatures) {
      const verdict = verify(withHeader(signedRequest(provider), provider.signatureHeader, signature));
      expect(verdict, signature).toEqual({ ok: false, reason: expect.any(String) });
    }
  });

  it('refuses a request signed with another secret', () => {
    const verdict = verify(signedRequest(provider, NOW_SECONDS, `${provider.secret}-other`));
    expect(verdict).toEqual({ ok: false, reason: expect.stringMatching(/signature/i) });
  });

  it('refuses a stale request, one beyond the window in the future, and honours a narrower window', () => {
    expect(verify(signedRequest(provider, NOW_SECONDS - 301))).toEqual({
      ok: false,
      reason: expect.stringMatching(/old/),
    });
    expect(verify(signedRequest(provider, NOW_SECONDS + 301))).toEqual({
      ok: false,
      reason: expect.stringMatching(/future/),
    });
    const narrow = { ...clock, toleranceSeconds: 60 };
    expect(verify(signedRequest(provider, NOW_SECONDS - 61), narrow).ok).toBe(false);
    expect(verify(signedRequest(provider, NOW_SECONDS - 59), narrow).ok).toBe(true);
  });

  it('refuses a body changed by one byte', () => {
    const req = signedRequest(provider);
    const rawBody = Buffer.from(req.rawBody);
    const at = rawBody.length - 2;
    rawBody[at] = (rawBody[at] ?? 0) ^ 0x01;
    expect(verify({ ...req, rawBody })).toEqual({ ok: false, reason: expect.any(String) });
  });

  it('refuses everything when no secret is configured', () => {
    const signedWithEmpty = signedRequest(provider, NOW_SECONDS, provider.name === 'Stripe' ? 'x' : '');
    expect(verify(signedWithEmpty, clock, '')).toEqual({
      ok: false,
      reason: expect.stringMatching(/no .* is configured/),
    });
  });

  it('rejects a negative window as a programming mistake', () => {
    expect(() => verify(signedRequest(provider), { ...clock, toleranceSeconds: -1 })).toThrow(RangeError);
  });
});
