/**
 * /insights/create/{activityWrapId}: the activity wrapped up is a channel's (its id), and the
 * selected data points travel in the URL's hash as base64url of their comma-separated ids, so the
 * page can be reloaded or sent to a colleague.
 */
export function insightCreatePath(channelId: string, pointIds: readonly string[]): string {
  const encoded = btoa(pointIds.join(',')).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `/insights/create/${channelId}#points=${encoded}`;
}

export function pointIdsOfHash(hash: string): string[] {
  const m = /points=([A-Za-z0-9_-]+)/.exec(hash);
  if (!m) return [];
  try {
    const text = atob(m[1]!.replace(/-/g, '+').replace(/_/g, '/'));
    return text.split(',').filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  } catch {
    return [];
  }
}
