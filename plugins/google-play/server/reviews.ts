import { z } from 'zod';
import {
  defineImportSource,
  fetchWithRetry,
  PluginInputError,
  type InstallationContext,
  type SourceRecord,
} from '@fieldbook/extensions-sdk/server';
import { serviceAccountToken } from './auth.ts';

export const googlePlaySettings = z
  .object({
    packageName: z
      .string({ error: 'Give the app’s package name.' })
      .trim()
      .regex(/^[a-zA-Z][\w]*(\.[a-zA-Z][\w]*)+$/, 'A package name looks like com.example.app.'),
  })
  .strict();

type Ctx = InstallationContext<never>;

export interface PlayReview {
  reviewId: string;
  authorName?: string;
  comments: Array<{
    userComment?: {
      text: string;
      lastModified: { seconds: string; nanos?: number };
      starRating: number;
      reviewerLanguage?: string;
      device?: string;
      appVersionName?: string;
    };
    developerComment?: { text: string; lastModified: { seconds: string } };
  }>;
}

interface ReviewCursor {
  token: string | null;
  /** Seconds of the newest review kept by the last finished pass. */
  newest: number | null;
  passNewest: number | null;
}

const modified = (r: PlayReview): number =>
  Number(r.comments.find((c) => c.userComment)?.userComment?.lastModified.seconds ?? 0);

function record(r: PlayReview, packageName: string): SourceRecord | null {
  const user = r.comments.find((c) => c.userComment)?.userComment;
  if (!user?.text.trim()) return null;
  const at = new Date(Number(user.lastModified.seconds) * 1000).toISOString();
  const reply = r.comments.find((c) => c.developerComment)?.developerComment;
  return {
    externalId: r.reviewId,
    externalUrl: `https://play.google.com/console/developers/app/reviews?packageName=${encodeURIComponent(packageName)}&reviewId=${encodeURIComponent(r.reviewId)}`,
    content: user.text.trim(),
    createdAt: at,
    fields: {
      Rating: user.starRating,
      ...(user.reviewerLanguage ? { Language: user.reviewerLanguage } : {}),
      ...(user.appVersionName ? { 'App version': user.appVersionName } : {}),
    },
    raw: {
      kind: 'ticket',
      createdAt: at,
      name: null,
      description: user.text.trim(),
      tags: [],
      creator: r.authorName ?? null,
      remoteFields: {
        starRating: user.starRating,
        device: user.device ?? null,
        appVersionName: user.appVersionName ?? null,
        developerReply: reply?.text ?? null,
      },
    },
  };
}

/**
 * Google Play reviews of one app through the Android Publisher API (`reviews.list`, newest change
 * first, `tokenPagination`). Google gives the reviews of the last week only, so a refresh at least
 * weekly keeps every review; a pass stops at the first review already kept.
 */
export const googlePlayReviews = defineImportSource<Ctx, typeof googlePlaySettings>({
  kind: 'GOOGLE_PLAY',
  label: 'Google Play reviews',
  description: 'Reviews of one of your Android apps on Google Play (Google keeps the last week of them).',
  fields: [
    { key: 'packageName', label: 'Package name', type: 'string', required: true, description: 'e.g. com.example.app' },
  ],
  settings: googlePlaySettings,
  fieldTypes: { Rating: 'RATING', Language: 'TEXT', 'App version': 'TEXT' },
  async list(ctx, { settings, cursor, since, pageSize }) {
    const account = ctx.installation.settings as Record<string, string | undefined>;
    const config = ctx.config as Record<string, string | undefined>;
    if (!account.clientEmail || !account.privateKey)
      throw new PluginInputError(
        'Google Play is not set up: a workspace admin fills in the service account in Settings → Extensions → Google Play.',
      );
    const accessToken = await serviceAccountToken(ctx.http, {
      clientEmail: account.clientEmail,
      privateKey: account.privateKey,
      tokenUrl: config.tokenUrl ?? 'https://oauth2.googleapis.com/token',
    });
    const at: ReviewCursor = (cursor as ReviewCursor | null) ?? { token: null, newest: null, passNewest: null };
    const query = new URLSearchParams({ maxResults: String(Math.min(100, pageSize)) });
    if (at.token) query.set('token', at.token);
    const root = (config.apiUrl ?? 'https://androidpublisher.googleapis.com').replace(/\/$/, '');
    const res = await fetchWithRetry(
      ctx.http,
      `${root}/androidpublisher/v3/applications/${encodeURIComponent(settings.packageName)}/reviews?${query}`,
      { headers: { authorization: `Bearer ${accessToken}` } },
    );
    if (res.status === 401 || res.status === 403)
      throw new PluginInputError(
        `Google Play refused the service account (HTTP ${res.status}); give it access to the app in Play Console → Users and permissions.`,
      );
    if (res.status === 404)
      throw new PluginInputError(`Google Play has no app ${settings.packageName} this service account can read.`, {
        field: 'packageName',
      });
    if (!res.ok) throw new Error(`Google Play answered HTTP ${res.status}.`);
    const page = (await res.json()) as { reviews?: PlayReview[]; tokenPagination?: { nextPageToken?: string } };
    const reviews = page.reviews ?? [];
    const floor = at.newest ?? Math.floor(Date.parse(since) / 1000);
    const fresh = reviews.filter((r) => modified(r) > floor);
    const passNewest = Math.max(at.passNewest ?? 0, ...fresh.map(modified)) || null;
    const nextToken = page.tokenPagination?.nextPageToken ?? null;
    const done = fresh.length < reviews.length || !nextToken;
    const next: ReviewCursor = done
      ? { token: null, newest: passNewest ?? at.newest, passNewest: null }
      : { token: nextToken, newest: at.newest, passNewest };
    return {
      records: fresh.map((r) => record(r, settings.packageName)).filter((r): r is SourceRecord => r !== null),
      cursor: { ...next },
      hasMore: !done,
    };
  },
});
