import { randomBytes, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PlayReview } from '../server/reviews.ts';

export interface FakeGooglePlay {
  url: string;
  tokenUrl: string;
  reviews: Map<string, PlayReview[]>;
  requests: Array<{ path: string; status: number }>;
  /** The next `n` API requests are answered 429 with `Retry-After: seconds`. */
  rateLimitNext(n: number, seconds: number): void;
  close(): Promise<void>;
}

/**
 * Google's token endpoint (JWT bearer grant, an RS256 assertion checked with the service account's
 * public key, `iss`, `aud` and the androidpublisher scope) and the Android Publisher API's
 * `reviews.list` (`maxResults`, `token`, `tokenPagination.nextPageToken`, newest change first).
 */
export async function startFakeGooglePlay(options: {
  clientEmail: string;
  publicKey: string;
  reviews: Record<string, PlayReview[]>;
}): Promise<FakeGooglePlay> {
  const reviews = new Map(Object.entries(options.reviews));
  const requests: FakeGooglePlay['requests'] = [];
  const tokens = new Set<string>();
  let limited = { count: 0, seconds: 1 };
  let url = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://play.local');
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        requests.push({ path: `${u.pathname}${u.search}`, status });
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && u.pathname === '/token') {
        const form = new URLSearchParams(Buffer.concat(chunks).toString());
        const [h, p, s] = (form.get('assertion') ?? '').split('.');
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !h || !p || !s)
          return answer(400, { error: 'invalid_request' });
        const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as {
          iss: string;
          aud: string;
          scope: string;
        };
        const signed = verify('sha256', Buffer.from(`${h}.${p}`), options.publicKey, Buffer.from(s, 'base64url'));
        if (
          !signed ||
          claims.iss !== options.clientEmail ||
          claims.aud !== `${url}/token` ||
          claims.scope !== 'https://www.googleapis.com/auth/androidpublisher'
        ) {
          return answer(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
        }
        const token = `ya29.${randomBytes(12).toString('hex')}`;
        tokens.add(token);
        return answer(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      }
      const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!tokens.has(bearer)) return answer(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
      if (limited.count > 0) {
        limited.count--;
        return answer(
          429,
          { error: { code: 429, status: 'RESOURCE_EXHAUSTED' } },
          { 'retry-after': String(limited.seconds) },
        );
      }
      const m = /^\/androidpublisher\/v3\/applications\/([^/]+)\/reviews$/.exec(u.pathname);
      const list = m ? reviews.get(decodeURIComponent(m[1]!)) : undefined;
      if (!list) return answer(404, { error: { code: 404, status: 'NOT_FOUND' } });
      const seconds = (r: PlayReview) =>
        Number(r.comments.find((c) => c.userComment)?.userComment?.lastModified.seconds ?? 0);
      const sorted = [...list].sort((a, b) => seconds(b) - seconds(a));
      const max = Math.min(100, Number(u.searchParams.get('maxResults') ?? 100));
      const offset = Number(u.searchParams.get('token') ?? 0);
      const page = sorted.slice(offset, offset + max);
      return answer(200, {
        reviews: page,
        tokenPagination: offset + max < sorted.length ? { nextPageToken: String(offset + max) } : {},
        pageInfo: { totalResults: sorted.length, resultPerPage: max },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    tokenUrl: `${url}/token`,
    reviews,
    requests,
    rateLimitNext(count, seconds) {
      limited = { count, seconds };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
