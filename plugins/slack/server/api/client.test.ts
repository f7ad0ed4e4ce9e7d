import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../testing/fake-slack.ts';
import { createSlackClient, type SlackClient } from './client.ts';
import { SlackApiError } from './errors.ts';

let slack: FakeSlack;
let client: SlackClient;
let fetchCalls = 0;

beforeAll(async () => {
  slack = await startFakeSlack({
    clientId: '42.99',
    clientSecret: 'shh',
    redirectUri: 'https://fieldbook.test/slack/callback',
    codes: ['good-code'],
    channels: [
      ...Array.from({ length: 5 }, (_, i) => ({ id: `C00${i}`, name: `general-${i}` })),
      { id: 'CPRIV', name: 'secret-research', is_private: true },
      { id: 'CHIDDEN', name: 'not-invited', is_private: true, is_member: false },
      { id: 'COLD', name: 'old', is_archived: true },
      { id: 'CAWAY', name: 'bot-not-in', is_member: false },
      {
        id: 'CMSG',
        name: 'feedback',
        messages: [
          { type: 'message', ts: '1700000001.000100', user: 'U1', text: 'first' },
          { type: 'message', ts: '1700000002.000200', user: 'U2', text: 'second' },
          { type: 'message', ts: '1700000003.000300', user: 'U1', text: 'third' },
        ],
      },
    ],
  });
  client = createSlackClient({
    baseUrl: slack.apiUrl,
    fetch: (input, init) => {
      fetchCalls += 1;
      return fetch(input, init);
    },
  });
});

afterAll(() => slack.close());

async function slackError(promise: Promise<unknown>): Promise<SlackApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SlackApiError);
  return error as SlackApiError;
}

describe('oauth.v2.access', () => {
  it('exchanges an install code for the bot token, team and bot user', async () => {
    const installation = await client.exchangeCode({
      clientId: '42.99',
      clientSecret: 'shh',
      code: 'good-code',
      redirectUri: 'https://fieldbook.test/slack/callback',
    });
    expect(installation).toMatchObject({
      accessToken: slack.botToken,
      tokenType: 'bot',
      botUserId: 'U0FAKEBOT',
      team: { id: 'T0FAKE001', name: 'Fake Team' },
      enterprise: null,
      authedUserId: 'U0INSTALLER',
    });
    const [request] = slack.requestsTo('oauth.v2.access');
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.body).toEqual({ code: 'good-code', redirect_uri: 'https://fieldbook.test/slack/callback' });
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('42.99:shh').toString('base64')}`);
  });

  it('refuses a code used twice with invalid_code and keeps the secret out of the message', async () => {
    const error = await slackError(
      client.exchangeCode({
        clientId: '42.99',
        clientSecret: 'shh',
        code: 'good-code',
        redirectUri: 'https://fieldbook.test/slack/callback',
      }),
    );
    expect(error.code).toBe('invalid_code');
    expect(error.status).toBe(200);
    expect(error.message).toBe('Slack oauth.v2.access failed: invalid_code');
  });

  it('reports a wrong client secret as bad_client_secret', async () => {
    slack.addCode('another');
    const error = await slackError(
      client.exchangeCode({
        clientId: '42.99',
        clientSecret: 'wrong',
        code: 'another',
        redirectUri: 'https://fieldbook.test/slack/callback',
      }),
    );
    expect(error.code).toBe('bad_client_secret');
    expect(error.message).not.toContain('wrong');
  });
});

describe('chat.postMessage', () => {
  it('posts JSON with the bearer token and answers channel and ts', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*New insight*' } }];
    const posted = await client.postMessage(slack.botToken, { channel: 'C001', text: 'New insight', blocks });
    expect(posted.channel).toBe('C001');
    expect(posted.ts).toMatch(/^\d+\.\d{6}$/);
    const request = slack.requestsTo('chat.postMessage').at(-1);
    expect(request?.headers.authorization).toBe(`Bearer ${slack.botToken}`);
    expect(request?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request?.body).toEqual({ channel: 'C001', text: 'New insight', blocks });
    expect(slack.channels.find((c) => c.id === 'C001')?.messages?.map((m) => m.text)).toEqual(['New insight']);
  });

  it('turns ok:false answers into typed errors', async () => {
    expect((await slackError(client.postMessage('xoxb-wrong', { channel: 'C001', text: 'x' }))).code).toBe(
      'invalid_auth',
    );
    expect((await slackError(client.postMessage(slack.botToken, { channel: 'CNOPE', text: 'x' }))).code).toBe(
      'channel_not_found',
    );
    expect((await slackError(client.postMessage(slack.botToken, { channel: 'CAWAY', text: 'x' }))).code).toBe(
      'not_in_channel',
    );
    expect((await slackError(client.postMessage(slack.botToken, { channel: 'COLD', text: 'x' }))).code).toBe(
      'is_archived',
    );
  });

  it('carries Retry-After when Slack rate limits', async () => {
    slack.rateLimitNext('chat.postMessage', 17);
    const error = await slackError(client.postMessage(slack.botToken, { channel: 'C001', text: 'x' }));
    expect(error).toMatchObject({ code: 'ratelimited', status: 429, retryAfterSeconds: 17 });
  });
});

describe('conversations.list', () => {
  it('follows next_cursor across pages', async () => {
    const first = await client.listConversations(slack.botToken, { limit: 3 });
    expect(first.items.map((c) => c.id)).toEqual(['C000', 'C001', 'C002']);
    expect(first.nextCursor).toBeTruthy();
    const second = await client.listConversations(slack.botToken, { limit: 3, cursor: first.nextCursor! });
    expect(second.items.map((c) => c.id)).toEqual(['C003', 'C004', 'CPRIV']);
    const request = slack.requestsTo('conversations.list').at(-1);
    expect(request?.method).toBe('GET');
    expect(request?.query).toMatchObject({
      types: 'public_channel,private_channel',
      limit: '3',
      cursor: first.nextCursor,
    });
  });

  it('collects every page, skipping archived channels and private ones the bot is not in', async () => {
    const before = slack.requestsTo('conversations.list').length;
    const all = await client.listAllConversations(slack.botToken, { limit: 2, excludeArchived: true });
    expect(all.map((c) => c.id)).toEqual(['C000', 'C001', 'C002', 'C003', 'C004', 'CPRIV', 'CAWAY', 'CMSG']);
    expect(slack.requestsTo('conversations.list').length - before).toBe(4);
  });

  it('stops at maxPages', async () => {
    const some = await client.listAllConversations(slack.botToken, { limit: 2, maxPages: 2 });
    expect(some).toHaveLength(4);
  });

  it('reports a bad cursor', async () => {
    expect((await slackError(client.listConversations(slack.botToken, { cursor: 'bm9wZQ==' }))).code).toBe(
      'invalid_cursor',
    );
  });
});

describe('reading a message', () => {
  it('pages conversations.history newest first', async () => {
    const first = await client.history(slack.botToken, { channel: 'CMSG', limit: 2 });
    expect(first.items.map((m) => m.text)).toEqual(['third', 'second']);
    expect(first.hasMore).toBe(true);
    const rest = await client.history(slack.botToken, { channel: 'CMSG', limit: 2, cursor: first.nextCursor! });
    expect(rest.items.map((m) => m.text)).toEqual(['first']);
    expect(rest).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('fetches one message by its ts', async () => {
    const message = await client.getMessage(slack.botToken, 'CMSG', '1700000002.000200');
    expect(message).toMatchObject({ user: 'U2', text: 'second' });
    expect(slack.requestsTo('conversations.history').at(-1)?.query).toMatchObject({
      channel: 'CMSG',
      latest: '1700000002.000200',
      oldest: '1700000002.000200',
      inclusive: 'true',
      limit: '1',
    });
    expect(await client.getMessage(slack.botToken, 'CMSG', '1600000000.000000')).toBeNull();
  });

  it('gets a permalink, or message_not_found', async () => {
    expect(await client.getPermalink(slack.botToken, 'CMSG', '1700000001.000100')).toBe(
      'https://fake-team.slack.com/archives/CMSG/p1700000001000100',
    );
    expect((await slackError(client.getPermalink(slack.botToken, 'CMSG', '1.2'))).code).toBe('message_not_found');
  });
});

describe('response_url', () => {
  it('posts an ephemeral reply', async () => {
    const responseUrl = slack.responseUrl();
    await client.respond(responseUrl, { text: 'Saved to Fieldbook' });
    expect(slack.responses(responseUrl)).toEqual([{ text: 'Saved to Fieldbook', response_type: 'ephemeral' }]);
  });

  it('reports an expired response_url', async () => {
    const error = await slackError(client.respond(slack.responseUrl({ expired: true }), { text: 'late' }));
    expect(error).toMatchObject({ code: 'expired_url', status: 404, method: 'response_url' });
  });
});

it('calls only the fetch it was given', () => {
  expect(fetchCalls).toBe(slack.requests.length);
});
