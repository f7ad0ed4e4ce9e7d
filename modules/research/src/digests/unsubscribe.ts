import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * One-click unsubscribe links (RFC 8058): the token names the person and the notification kind
 * (or `digest`) and is signed with the installation's secret key, so it works without signing in
 * and cannot be forged for anyone else. It never expires: an old email's link still unsubscribes.
 */
const sign = (secret: string, body: string) =>
  createHmac('sha256', secret).update(`unsubscribe:${body}`).digest('base64url');

export function unsubscribeToken(secret: string, userId: string, kind: string): string {
  const body = Buffer.from(`${userId}:${kind}`).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

export function readUnsubscribeToken(secret: string, token: string): { userId: string; kind: string } | null {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined || token.length > 400) return null;
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const [userId, kind] = Buffer.from(body, 'base64url').toString('utf8').split(':');
  if (!userId || !kind || !/^[0-9a-f-]{36}$/i.test(userId)) return null;
  return { userId, kind };
}

/** The link in the email's text (a page with one button) and the List-Unsubscribe headers (one POST). */
export function unsubscribeParts(
  publicUrl: URL,
  secret: string,
  userId: string,
  kind: string,
): { pageUrl: string; headers: Record<string, string> } {
  const token = unsubscribeToken(secret, userId, kind);
  const post = new URL('/email/unsubscribe', publicUrl);
  post.searchParams.set('token', token);
  const page = new URL('/unsubscribe', publicUrl);
  page.searchParams.set('token', token);
  return {
    pageUrl: page.toString(),
    headers: { 'List-Unsubscribe': `<${post.toString()}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
