import { describe, expect, it } from 'vitest';
import { signIntercomRequest, signSlackRequest, signStripeRequest, signZendeskRequest } from '../../testing/signers.ts';
import {
  verifyIntercomRequest,
  verifySlackRequest,
  verifyStripeRequest,
  verifyZendeskRequest,
  zoomUrlValidation,
} from './index.ts';

const NOW_SECONDS = 1_700_000_000;
const clock = { now: () => NOW_SECONDS * 1000 };

describe('Slack', () => {
  // The worked example in Slack's "Verifying requests from Slack".
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const timestamp = 1531420618;
  const body =
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar' +
    '&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com' +
    '%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
  const signature = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';

  it("accepts Slack's documented example request", () => {
    const req = {
      headers: { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signature },
      rawBody: Buffer.from(body),
    };
    expect(verifySlackRequest(req, secret, { now: () => (timestamp + 10) * 1000 })).toEqual({ ok: true });
    // The same request five minutes and one second later is a replay.
    expect(verifySlackRequest(req, secret, { now: () => (timestamp + 301) * 1000 }).ok).toBe(false);
  });

  it("signs Slack's documented example to the documented signature", () => {
    expect(signSlackRequest(body, secret, { timestamp })['x-slack-signature']).toBe(signature);
  });

  it('accepts a signature sent in upper-case hex', () => {
    const req = {
      headers: {
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': `v0=${signature.slice(3).toUpperCase()}`,
      },
      rawBody: Buffer.from(body),
    };
    expect(verifySlackRequest(req, secret, { now: () => timestamp * 1000 }).ok).toBe(true);
  });
});

describe('Zoom URL validation', () => {
  it('answers the challenge with the plain token and its hex HMAC-SHA256 under the secret token', () => {
    // Zoom's documented challenge token; the expected answer for this secret is an independently published one.
    const answer = zoomUrlValidation('qgg8vlvZRS6UYooatFL8Aw', 'secretValueTest');
    expect(answer).toEqual({
      plainToken: 'qgg8vlvZRS6UYooatFL8Aw',
      encryptedToken: '70c1f2e2e6ca2d39297490d1f9142c7d701415ea8e6151f6562a08fa657a40ff',
    });
  });

  it('gives a different answer under another secret token and refuses an empty one', () => {
    expect(zoomUrlValidation('qgg8vlvZRS6UYooatFL8Aw', 'another').encryptedToken).not.toBe(
      '70c1f2e2e6ca2d39297490d1f9142c7d701415ea8e6151f6562a08fa657a40ff',
    );
    expect(() => zoomUrlValidation('qgg8vlvZRS6UYooatFL8Aw', '')).toThrow(/secret token/);
  });
});

describe('Zendesk', () => {
  const secret = 'dGhpc19zZWNyZXRfaXNfZm9yX3Rlc3Rpbmdfb25seQ==';

  it('signs the timestamp header exactly as sent, then the body', () => {
    const headers = signZendeskRequest('{"say":"hello"}', secret, { timestamp: NOW_SECONDS });
    expect(headers['x-zendesk-webhook-signature-timestamp']).toBe('2023-11-14T22:13:20Z');
    const req = { headers, rawBody: Buffer.from('{"say":"hello"}') };
    expect(verifyZendeskRequest(req, secret, clock).ok).toBe(true);
    // The same instant written another way is a different signed string.
    const rewritten = {
      ...req,
      headers: { ...headers, 'x-zendesk-webhook-signature-timestamp': '2023-11-14T22:13:20.000Z' },
    };
    expect(verifyZendeskRequest(rewritten, secret, clock)).toEqual({
      ok: false,
      reason: 'signature does not match the body',
    });
  });

  it('verifies a body-less request (GET, DELETE) on the timestamp alone', () => {
    const req = { headers: signZendeskRequest('', secret, { timestamp: NOW_SECONDS }), rawBody: Buffer.alloc(0) };
    expect(verifyZendeskRequest(req, secret, clock).ok).toBe(true);
  });

  it('refuses timestamps that are not ISO 8601 date-times', () => {
    for (const timestamp of [String(NOW_SECONDS), 'yesterday', '2023-11-14', '2023-11-14 22:13:20']) {
      const headers = {
        ...signZendeskRequest('{}', secret, { timestamp: NOW_SECONDS }),
        'x-zendesk-webhook-signature-timestamp': timestamp,
      };
      expect(verifyZendeskRequest({ headers, rawBody: Buffer.from('{}') }, secret, clock), timestamp).toEqual({
        ok: false,
        reason: expect.stringContaining('ISO 8601'),
      });
    }
  });
});

describe('Intercom', () => {
  const secret = 'intercom-client-secret';
  const signed = (body: string) => ({ headers: signIntercomRequest(body, secret), rawBody: Buffer.from(body) });

  it('applies the window to the signed created_at, as Intercom sends no timestamp header', () => {
    expect(
      verifyIntercomRequest(
        signed(JSON.stringify({ type: 'notification_event', created_at: NOW_SECONDS - 10 })),
        secret,
        clock,
      ).ok,
    ).toBe(true);
    expect(verifyIntercomRequest(signed(JSON.stringify({ created_at: NOW_SECONDS - 3600 })), secret, clock)).toEqual({
      ok: false,
      reason: expect.stringMatching(/^created_at .*old/),
    });
  });

  it('refuses a correctly signed notification with no usable created_at', () => {
    for (const body of [
      '{"type":"notification_event"}',
      '{"created_at":"1700000000"}',
      '{"created_at":1.5}',
      'not json',
      '[]',
    ]) {
      expect(verifyIntercomRequest(signed(body), secret, clock), body).toEqual({
        ok: false,
        reason: expect.stringContaining('created_at'),
      });
    }
  });

  it('checks the signature before trusting anything in the body', () => {
    const req = { ...signed(JSON.stringify({ created_at: NOW_SECONDS })), rawBody: Buffer.from('not json') };
    expect(verifyIntercomRequest(req, secret, clock)).toEqual({
      ok: false,
      reason: 'signature does not match the body',
    });
  });
});

describe('Stripe', () => {
  const secret = 'whsec_test_secret';
  const body = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type: 'customer.subscription.updated',
    data: { object: { id: 'sub_1' } },
  });

  it('returns the parsed event with an accepted request', () => {
    const verdict = verifyStripeRequest(
      { headers: signStripeRequest(body, secret, { timestamp: NOW_SECONDS }), rawBody: Buffer.from(body) },
      secret,
      clock,
    );
    expect(verdict.ok && verdict.event).toMatchObject({ id: 'evt_1', type: 'customer.subscription.updated' });
  });

  it('accepts any of several v1 signatures, as while a secret is being rolled', () => {
    const old = signStripeRequest(body, 'whsec_old', { timestamp: NOW_SECONDS })['stripe-signature'] ?? '';
    const current = signStripeRequest(body, secret, { timestamp: NOW_SECONDS })['stripe-signature'] ?? '';
    const header = `${old},${current.split(',').find((part) => part.startsWith('v1=')) ?? ''}`;
    expect(
      verifyStripeRequest({ headers: { 'stripe-signature': header }, rawBody: Buffer.from(body) }, secret, clock).ok,
    ).toBe(true);
  });

  it('refuses a signed body that is not an event', () => {
    const verdict = verifyStripeRequest(
      { headers: signStripeRequest('not json', secret, { timestamp: NOW_SECONDS }), rawBody: Buffer.from('not json') },
      secret,
      clock,
    );
    expect(verdict).toEqual({ ok: false, reason: expect.stringMatching(/^stripe: /) });
  });
});
