import { z } from 'zod';

/**
 * The `state` of an integration's OAuth flow (001 §3.5): it carries an xsrf token, the origin to
 * return to, the source that started it and its options, plus the ids needed to find the stored
 * copy. The callback refuses it unless every part matches that copy and the xsrf token matches the
 * cookie of the browser that started the flow.
 */
export const authStateSchema = z.object({
  id: z.string().uuid(),
  workspaceId: z.string().uuid(),
  xsrf: z.string().min(20).max(200),
  origin: z.string().max(2000),
  source: z.string().max(100),
  options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});

export type AuthState = z.infer<typeof authStateSchema>;

export function encodeAuthState(state: AuthState): string {
  return Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
}

export function decodeAuthState(value: string | undefined): AuthState | null {
  if (!value || value.length > 8000) return null;
  try {
    const parsed = authStateSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Only paths of this app may be returned to, never another site. */
export function safeOrigin(origin: string | null | undefined, fallback: string): string {
  if (!origin || !origin.startsWith('/') || origin.startsWith('//') || origin.includes('\\')) return fallback;
  return origin;
}

export const XSRF_COOKIE = 'fb_integration_xsrf';
export const STATE_TTL_SECONDS = 600;
