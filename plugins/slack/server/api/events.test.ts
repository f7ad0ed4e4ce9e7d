import { describe, expect, it } from 'vitest';
import { SlackApiError } from './errors.ts';
import { parseSlackEventEnvelope, parseSlackMessageAction } from './events.ts';
import { verifySlackRequest } from '@fieldbook/extensions-sdk/server';
import { signSlackRequest } from '@fieldbook/extensions-sdk/testing';

const messageAction = {
  type: 'message_action',
  token: 'legacy-verification-token',
  action_ts: '1700000100.123456',
  team: { id: 'T123', domain: 'acme' },
  user: { id: 'U777', name: 'dana' },
  channel: { id: 'C555', name: 'customer-feedback' },
  callback_id: 'save_to_fieldbook',
  trigger_id: '13345224609.738474920.8088930838d88f008e0',
  message_ts: '1700000000.000100',
  message: { type: 'message', user: 'U888', ts: '1700000000.000100', text: 'Export to CSV is broken again' },
  response_url: 'https://hooks.slack.com/app/T123/1234/abcd',
};

describe('Events API envelope', () => {
  it('reads url_verification with its challenge', () => {
    const envelope = parseSlackEventEnvelope(
      JSON.stringify({ token: 't', challenge: 'abc123', type: 'url_verification' }),
    );
    expect(envelope).toEqual({ token: 't', challenge: 'abc123', type: 'url_verification' });
  });

  it('reads event_callback with team, event id and inner event', () => {
    const body = {
      token: 't',
      team_id: 'T123',
      api_app_id: 'A1',
      event: { type: 'app_uninstalled' },
      type: 'event_callback',
      event_id: 'Ev0001',
      event_time: 1700000000,
    };
    const envelope = parseSlackEventEnvelope(JSON.stringify(body));
    expect(envelope.type).toBe('event_callback');
    if (envelope.type === 'event_callback')
      expect([envelope.team_id, envelope.event_id, envelope.event.type]).toEqual(['T123', 'Ev0001', 'app_uninstalled']);
  });

  it.each([['not json'], ['{"type":"event_callback"}'], ['{"type":"url_verification"}'], ['[]']])(
    'rejects %s',
    (body) => {
      expect(() => parseSlackEventEnvelope(body)).toThrow(SlackApiError);
    },
  );
});

describe('message action payload', () => {
  it('reads the form-encoded payload of a message shortcut', () => {
    const form = new URLSearchParams({ payload: JSON.stringify(messageAction) }).toString();
    const action = parseSlackMessageAction(form);
    expect(action?.callback_id).toBe('save_to_fieldbook');
    expect(action?.team.id).toBe('T123');
    expect(action?.channel.id).toBe('C555');
    expect(action?.message).toMatchObject({
      text: 'Export to CSV is broken again',
      ts: '1700000000.000100',
      user: 'U888',
    });
    expect(action?.response_url).toBe('https://hooks.slack.com/app/T123/1234/abcd');
  });

  it('answers null for other interaction types', () => {
    expect(
      parseSlackMessageAction(new URLSearchParams({ payload: JSON.stringify({ type: 'block_actions' }) })),
    ).toBeNull();
  });

  it('rejects a missing or incomplete payload', () => {
    expect(() => parseSlackMessageAction('')).toThrow(SlackApiError);
    const { response_url: _dropped, ...incomplete } = messageAction;
    expect(() => parseSlackMessageAction(new URLSearchParams({ payload: JSON.stringify(incomplete) }))).toThrow(
      SlackApiError,
    );
  });
});

describe('request signature (the SDK verifier, as the webhook uses it)', () => {
  const signingSecret = '8f742231b10e8888abcd99yyyzzz85a5';
  const rawBody = 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&command=%2Fweather';
  const nowSeconds = 1_531_420_618;
  const clock = (seconds: number) => ({ now: () => seconds * 1000 });
  const request = (headers: Record<string, string | undefined>, body = rawBody) => ({
    headers,
    rawBody: Buffer.from(body),
  });

  it('accepts the signature Slack computes for the body and timestamp', () => {
    const headers = signSlackRequest(rawBody, signingSecret, { timestamp: nowSeconds });
    expect(headers['x-slack-signature']).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(verifySlackRequest(request(headers), signingSecret, clock(nowSeconds)).ok).toBe(true);
  });

  it('refuses a changed body, a wrong secret, a missing header and a stale timestamp', () => {
    const headers = signSlackRequest(rawBody, signingSecret, { timestamp: nowSeconds });
    expect(verifySlackRequest(request(headers, `${rawBody}&x=1`), signingSecret, clock(nowSeconds)).ok).toBe(false);
    expect(verifySlackRequest(request(headers), 'other', clock(nowSeconds)).ok).toBe(false);
    expect(
      verifySlackRequest(request({ ...headers, 'x-slack-signature': undefined }), signingSecret, clock(nowSeconds)).ok,
    ).toBe(false);
    expect(verifySlackRequest(request(headers), signingSecret, clock(nowSeconds + 6 * 60)).ok).toBe(false);
  });
});
