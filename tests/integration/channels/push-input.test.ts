import { beforeAll, describe, expect, it } from 'vitest';
import { apiToken, post, useChannelFixture } from './support.ts';

/**
 * Text PostgreSQL cannot store, and bodies past the limit, pushed to a channel: each bad point
 * fails alone as bad input naming its field (the rest go in), and a body too large is answered
 * 413 naming the limit, not with a dropped connection.
 */
describe('pushing data points the database cannot store', () => {
  const a = useChannelFixture('Pushed input');
  let token: string;

  beforeAll(async () => {
    token = await apiToken(a.server, a.contributor.accessToken, a.ws.id);
  });

  const push = (body: string) => post(a.server, `/api/channels/${a.channelId}/datapoints`, body, { token });

  it('fails each point holding NUL or half a surrogate pair alone, naming the field, and stores the others', async () => {
    const res = await push(
      JSON.stringify({
        dataPoints: [
          { externalId: 'ok-1', content: 'A fine point' },
          { externalId: 'nul\u0000id', content: 'NUL in the id' },
          { externalId: 'nul-name', content: 'NUL in a name', person: { email: 'n@example.com', name: 'N\u0000' } },
          { externalId: 'half', content: 'Half an emoji \ud83d here' },
          { externalId: 'nul-key', content: 'NUL in a field name', fields: { 'Pl\u0000an': 'Team' } },
          {
            externalId: 'nul-raw',
            content: 'NUL deep in the ticket',
            raw: { kind: 'ticket', createdAt: '2026-03-02T10:00:00Z', remoteFields: { note: 'a\u0000b' } },
          },
          { externalId: 'ok-2', content: 'Another fine point' },
        ],
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ created: 2, failed: 5 });
    const answers = res.json.dataPoints as Array<{ status: string; reason?: string; errorCode?: string }>;
    expect(answers.map((x) => x.status)).toEqual([
      'created',
      'failed',
      'failed',
      'failed',
      'failed',
      'failed',
      'created',
    ]);
    expect(answers[1]).toMatchObject({
      errorCode: 'BAD_USER_INPUT',
      reason: 'dataPoints[1].externalId cannot contain the NUL character (\\u0000).',
    });
    expect(answers[2]!.reason).toBe('dataPoints[2].person.name cannot contain the NUL character (\\u0000).');
    expect(answers[3]!.reason).toMatch(/^dataPoints\[3\]\.content is not valid Unicode/);
    expect(answers[4]!.reason).toMatch(/^dataPoints\[4\]\.fields \(a key\) cannot contain the NUL character/);
    expect(answers[5]!.reason).toMatch(/^dataPoints\[5\]\.raw\.remoteFields\.note cannot contain the NUL/);
    const stored = await a.server.fieldbook.db.owner('channel_datapoints').where({ channel_id: a.channelId });
    expect(stored.map((p: { external_id: string }) => p.external_id).sort()).toEqual(['ok-1', 'ok-2']);
  });

  it('answers a body past 10 MB with 413 and the limit, and stores nothing', async () => {
    const content = 'x'.repeat(1000);
    const dataPoints = Array.from({ length: 11_000 }, (_, i) => ({ externalId: `big-${i}`, content }));
    const res = await push(JSON.stringify({ dataPoints }));
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({
      errors: [{ message: 'The request body can be at most 10 MB.', extensions: { errorCode: 'BAD_USER_INPUT' } }],
    });
    // Sent in chunks with no length declared, so the server finds out only as it reads.
    const bytes = new TextEncoder().encode(JSON.stringify({ dataPoints }));
    const streamed = await fetch(`${a.server.url}/api/channels/${a.channelId}/datapoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ errors: [{ message: 'The request body can be at most 10 MB.' }] });
    const big = await a.server.fieldbook.db
      .owner('channel_datapoints')
      .where({ channel_id: a.channelId })
      .whereLike('external_id', 'big-%');
    expect(big).toHaveLength(0);
  });
});
