import { z } from 'zod';
import {
  defineImportSource,
  fetchWithRetry,
  PluginInputError,
  type InstallationContext,
  type SourceRecord,
} from '@fieldbook/extensions-sdk/server';
import { appStoreToken } from './jwt.ts';

export const appStoreSettings = z
  .object({
    appId: z
      .string({ error: 'Give the app’s Apple ID.' })
      .trim()
      .regex(/^\d{1,20}$/, 'The Apple ID of an app is a number, e.g. 1234567890.'),
  })
  .strict();

type Ctx = InstallationContext<never>;

export interface CustomerReview {
  type: 'customerReviews';
  id: string;
  attributes: {
    rating: number;
    title: string | null;
    body: string | null;
    reviewerNickname: string | null;
    createdDate: string;
    territory: string | null;
  };
}

interface ReviewsPage {
  data: CustomerReview[];
  links: { self: string; next?: string };
}

/** Where a listing stands: the page under way, and the newest review of the last finished pass. */
interface ReviewCursor {
  next: string | null;
  /** Reviews created after this are new; null before the first pass ended. */
  newest: string | null;
  /** The newest review seen in the pass under way. */
  passNewest: string | null;
}

function record(r: CustomerReview): SourceRecord {
  const a = r.attributes;
  return {
    externalId: r.id,
    content: [a.title?.trim(), a.body?.trim()].filter(Boolean).join('\n\n') || `${a.rating} stars`,
    createdAt: a.createdDate,
    fields: { Rating: a.rating, ...(a.territory ? { Territory: a.territory } : {}) },
    raw: {
      kind: 'ticket',
      createdAt: a.createdDate,
      name: a.title,
      description: a.body,
      tags: [],
      creator: a.reviewerNickname,
      remoteFields: { rating: a.rating, territory: a.territory },
    },
  };
}

/**
 * App Store customer reviews of one app, newest first (`sort=-createdDate`, `links.next`
 * pagination); a pass stops at the first review it kept before, so a sync reads only new reviews.
 */
export const appStoreReviews = defineImportSource<Ctx, typeof appStoreSettings>({
  kind: 'APP_STORE',
  label: 'App Store reviews',
  description: 'Customer reviews of one of your apps on the App Store.',
  fields: [
    {
      key: 'appId',
      label: 'App Apple ID',
      type: 'string',
      required: true,
      description: 'App Store Connect → your app → App Information → Apple ID.',
    },
  ],
  settings: appStoreSettings,
  fieldTypes: { Rating: 'RATING', Territory: 'TEXT' },
  async list(ctx, { settings, cursor, since, pageSize }) {
    const key = ctx.installation.settings as Record<string, string | undefined>;
    if (!key.issuerId || !key.keyId || !key.privateKey)
      throw new PluginInputError(
        'App Store Connect is not set up: a workspace admin fills in the issuer id, key id and private key in Settings → Extensions → App Store.',
      );
    const root = (
      (ctx.config as Record<string, string | undefined>).apiUrl ?? 'https://api.appstoreconnect.apple.com'
    ).replace(/\/$/, '');
    const at: ReviewCursor = (cursor as ReviewCursor | null) ?? { next: null, newest: null, passNewest: null };
    const url =
      at.next ?? `${root}/v1/apps/${settings.appId}/customerReviews?sort=-createdDate&limit=${Math.min(200, pageSize)}`;
    const res = await fetchWithRetry(ctx.http, url, {
      headers: {
        authorization: `Bearer ${appStoreToken({ issuerId: key.issuerId, keyId: key.keyId, privateKey: key.privateKey })}`,
        accept: 'application/json',
      },
    });
    if (res.status === 401 || res.status === 403)
      throw new PluginInputError(
        `App Store Connect refused the API key (HTTP ${res.status}); check the issuer id, key id and private key in Settings → Extensions → App Store.`,
      );
    if (res.status === 404)
      throw new PluginInputError(
        `App Store Connect has no app with the Apple ID ${settings.appId} that this key can read.`,
        { field: 'appId' },
      );
    if (!res.ok) throw new Error(`App Store Connect answered HTTP ${res.status}.`);
    const page = (await res.json()) as ReviewsPage;
    const floor = Date.parse(at.newest ?? since);
    const fresh = page.data.filter((r) => Date.parse(r.attributes.createdDate) > floor);
    const passNewest =
      [at.passNewest, ...fresh.map((r) => r.attributes.createdDate)]
        .filter((d): d is string => !!d)
        .sort()
        .at(-1) ?? null;
    // Newest first: once a review is not new, neither are the ones after it.
    const done = fresh.length < page.data.length || !page.links.next;
    const next: ReviewCursor = done
      ? { next: null, newest: passNewest ?? at.newest, passNewest: null }
      : { next: page.links.next!, newest: at.newest, passNewest };
    return { records: fresh.map(record), cursor: { ...next }, hasMore: !done };
  },
});
