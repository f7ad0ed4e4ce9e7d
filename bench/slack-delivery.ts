import { createHmac } from 'node:crypto';

export interface DeliveryTarget {
  url: string;
  secret: string;
  teamId: string;
  responseUrl: string;
}

/**
 * A new "Save to Fieldbook" message shortcut, signed as Slack signs it (v0, HMAC-SHA256 over
 * `v0:timestamp:body`): each `n` is its own event, never a repeat.
 */
export function signedDelivery(
  target: DeliveryTarget,
  n: number,
  tag: string,
): { body: string; headers: Record<string, string> } {
  const payload = {
    type: 'message_action',
    callback_id: 'save_to_fieldbook',
    trigger_id: `bench-${tag}-${n}`,
    response_url: target.responseUrl,
    team: { id: target.teamId, domain: 'bench' },
    user: { id: 'U1', name: 'bench' },
    channel: { id: 'CBENCH', name: 'bench' },
    message: {
      type: 'message',
      user: 'U2',
      ts: `1700000000.${String(n).padStart(6, '0')}`,
      text: `Benchmark message ${n}\nSaved under load.`,
    },
  };
  const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', target.secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return {
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signature,
    },
  };
}
