/** Only a path inside this app may be a place to go back to, never another site. */
export function safeOrigin(origin: string | null | undefined, fallback: string): string {
  if (!origin || !origin.startsWith('/') || origin.startsWith('//') || origin.includes('\\')) return fallback;
  return origin;
}

/** What the provider's redirect says: `?integration=<id>&connected=1` or `&integrationError=<message>`. */
export function integrationOutcome(search: string): {
  integration: string | null;
  connected: boolean;
  error: string | null;
} {
  const params = new URLSearchParams(search);
  return {
    integration: params.get('integration'),
    connected: params.get('connected') === '1',
    error: params.get('integrationError'),
  };
}
