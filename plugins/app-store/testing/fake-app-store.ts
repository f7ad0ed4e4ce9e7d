import { verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CustomerReview } from '../server/reviews.ts';

export interface FakeAppStore {
  url: string;
  reviews: Map<string, CustomerReview[]>;
  requests: Array<{ path: string; status: number }>;
  /** The next `n` requests are answered 429 with `Retry-After: seconds`. */
  rateLimitNext(n: number, seconds: number): void;
  close(): Promise<void>;
}

/**
 * App Store Connect's API as documented for customer reviews: a bearer JWT (ES256, `kid` naming the
 * key, `iss` the issuer, audience `appstoreconnect-v1`, at most 20 minutes) checked with the key's
 * public key; `GET /v1/apps/{id}/customerReviews?sort=-createdDate&limit=` with `links.next`.
 */
export async function startFakeAppStore(options: {
  issuerId: string;
  keyId: string;
  publicKey: string;
  reviews: Record<string, CustomerReview[]>;
}): Promise<FakeAppStore> {
  const reviews = new Map(Object.entries(options.reviews));
  const requests: FakeAppStore['requests'] = [];
  let limited = { count: 0, seconds: 1 };
  let url = '';
  const authorised = (header: string | undefined): boolean => {
    const token = header?.startsWith('Bearer ') ? header.slice(7) : '';
    const [h, p, s] = token.split('.');
    if (!h || !p || !s) return false;
    const head = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string; kid: string };
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as {
      iss: string;
      aud: string;
      exp: number;
      iat: number;
    };
    if (
      head.alg !== 'ES256' ||
      head.kid !== options.keyId ||
      claims.iss !== options.issuerId ||
      claims.aud !== 'appstoreconnect-v1'
    )
      return false;
    if (claims.exp - claims.iat > 20 * 60 || claims.exp < Date.now() / 1000) return false;
    return verify(
      'sha256',
      Buffer.from(`${h}.${p}`),
      { key: options.publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(s, 'base64url'),
    );
  };
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://asc.local');
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ path: `${u.pathname}${u.search}`, status });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (!authorised(req.headers.authorization))
      return answer(401, {
        errors: [
          { status: '401', code: 'NOT_AUTHORIZED', title: 'Authentication credentials are missing or invalid.' },
        ],
      });
    if (limited.count > 0) {
      limited.count--;
      return answer(
        429,
        { errors: [{ status: '429', code: 'RATE_LIMIT_EXCEEDED' }] },
        { 'retry-after': String(limited.seconds) },
      );
    }
    const m = /^\/v1\/apps\/(\d+)\/customerReviews$/.exec(u.pathname);
    const list = m ? reviews.get(m[1]!) : undefined;
    if (!m || !list) return answer(404, { errors: [{ status: '404', code: 'NOT_FOUND' }] });
    const sorted = [...list].sort((a, b) =>
      u.searchParams.get('sort') === '-createdDate'
        ? b.attributes.createdDate.localeCompare(a.attributes.createdDate)
        : a.attributes.createdDate.localeCompare(b.attributes.createdDate),
    );
    const limit = Math.min(200, Number(u.searchParams.get('limit') ?? 50));
    const offset = Number(u.searchParams.get('cursor') ?? 0);
    const data = sorted.slice(offset, offset + limit);
    const next = new URL(u.pathname + u.search, url);
    next.searchParams.set('cursor', String(offset + limit));
    return answer(200, {
      data,
      links: {
        self: `${url}${u.pathname}${u.search}`,
        ...(offset + limit < sorted.length ? { next: next.toString() } : {}),
      },
      meta: { paging: { total: sorted.length, limit } },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    reviews,
    requests,
    rateLimitNext(count, seconds) {
      limited = { count, seconds };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
