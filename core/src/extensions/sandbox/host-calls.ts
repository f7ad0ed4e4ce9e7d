import { createHash, createHmac, randomBytes, randomUUID, sign as signWithKey } from 'node:crypto';
import { AppError } from '../../errors/app-error.ts';
import {
  PluginInputError,
  PluginPermissionError,
  type InstallationContext,
  type JsonObject,
  type NoteDraft,
  type NotesReader,
  type NotesWriter,
  type PluginContext,
  type ProjectsReader,
} from '@fieldbook/extensions-sdk/server';
import type { ContextDescription, CrossingError, CrossingRequest, CrossingResponse } from './codec.ts';

/** A context as the host holds it for a call: the same object a trusted plugin would receive. */
export type HostContext = PluginContext | InstallationContext<string>;

const isInstallationContext = (ctx: HostContext): ctx is InstallationContext<string> => 'installation' in ctx;

/** What of a context the isolate gets a copy of; its capabilities stay here. */
export function describeContext(ctx: HostContext): ContextDescription {
  const installation = isInstallationContext(ctx) ? ctx.installation : null;
  const viewer = (ctx as { viewer?: unknown }).viewer ?? null;
  return {
    plugin: ctx.plugin,
    config: ctx.config as Record<string, string | undefined>,
    publicUrl: ctx.publicUrl,
    installation,
    viewer,
    granted: ['notes', 'projects'].filter((name) => Object.getOwnPropertyDescriptor(ctx, name)?.enumerable),
  };
}

function installationOf(ctx: HostContext, path: string): InstallationContext<string> {
  if (!isInstallationContext(ctx)) throw new Error(`${path} is only there in the work of an installation.`);
  return ctx;
}

const text = (value: unknown, what: string): string => {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string.`);
  return value;
};

async function fetchFor(ctx: HostContext, url: unknown, init: CrossingRequest): Promise<CrossingResponse> {
  const res = await ctx.http.fetch(text(url, 'The URL'), {
    method: init.method,
    headers: init.headers,
    body: init.body === null ? undefined : typeof init.body === 'string' ? init.body : new Uint8Array(init.body),
    redirect: init.redirect,
  });
  return {
    status: res.status,
    statusText: res.statusText,
    url: res.url,
    headers: [...res.headers.entries()],
    body: new Uint8Array(await res.arrayBuffer()),
  };
}

/**
 * Runs a context method a sandboxed plugin called. Only the methods of the context contract are
 * here; each runs on the host's own context object, so its capability checks, egress policy and
 * acting member are exactly those of a trusted plugin.
 */
export async function runContextCall(ctx: HostContext, path: string, args: unknown[]): Promise<unknown> {
  const c = ctx as InstallationContext<string> & { notes: NotesWriter & NotesReader; projects: ProjectsReader };
  switch (path) {
    case 'http.fetch':
      return fetchFor(ctx, args[0], args[1] as CrossingRequest);
    case 'jobs.send':
      return installationOf(ctx, path).jobs.send(
        text(args[0], 'The job name'),
        (args[1] ?? {}) as JsonObject,
        args[2] as { singletonKey?: string; startAfterSeconds?: number } | undefined,
      );
    case 'notes.create':
      installationOf(ctx, path);
      return c.notes.create(args[0] as NoteDraft);
    case 'notes.get':
      installationOf(ctx, path);
      return c.notes.get(text(args[0], 'The note id'));
    case 'projects.list':
      installationOf(ctx, path);
      return c.projects.list();
    case 'saveConnectionTokens':
      return installationOf(ctx, path).saveConnectionTokens(args[0] as Record<string, string>);
    case 'userConnection':
      return installationOf(ctx, path).userConnection();
    case 'saveUserConnectionTokens':
      return installationOf(ctx, path).saveUserConnectionTokens(args[0] as Record<string, string>);
    case 'disconnect':
      return installationOf(ctx, path).disconnect();
    default:
      throw new Error(`The plugin context has no ${path}.`);
  }
}

/** The pure functions the isolate borrows: HMAC and hashes for webhook signatures, signing with a key it gives, randomness. */
export function runPureCall(name: string, args: unknown[]): unknown {
  switch (name) {
    case 'crypto.hmac':
      return createHmac(text(args[0], 'The algorithm'), args[1] as Uint8Array)
        .update(args[2] as Uint8Array)
        .digest();
    case 'crypto.hash':
      return createHash(text(args[0], 'The algorithm'))
        .update(args[2] as Uint8Array)
        .digest();
    case 'crypto.random': {
      const size = Number(args[0]);
      if (!Number.isInteger(size) || size < 0 || size > 65_536)
        throw new RangeError('At most 65536 random bytes at a time.');
      return randomBytes(size);
    }
    case 'crypto.uuid':
      return randomUUID();
    case 'crypto.sign': {
      const encoding = args[3] === 'ieee-p1363' ? 'ieee-p1363' : 'der';
      return signWithKey(args[0] === null ? null : text(args[0], 'The algorithm'), args[2] as Uint8Array, {
        key: text(args[1], 'The key'),
        dsaEncoding: encoding,
      });
    }
    default:
      throw new Error(`No ${name} is lent to plugins.`);
  }
}

/** An error on its way into the isolate; the original is kept so it comes back unchanged. */
export function errorIntoSandbox(err: unknown, kept: unknown[]): CrossingError {
  kept.push(err);
  const hostRef = kept.length - 1;
  if (err instanceof PluginPermissionError)
    return { name: err.name, message: err.message, permission: err.permission, hostRef };
  if (err instanceof PluginInputError)
    return { name: err.name, message: err.message, field: err.options.field, code: err.options.code, hostRef };
  if (err instanceof AppError)
    return { name: err.name, message: err.message, field: err.field, code: err.errorCode, hostRef };
  return {
    name: err instanceof Error ? err.name : 'Error',
    message: err instanceof Error ? err.message : String(err),
    hostRef,
  };
}

const INPUT_CODES = new Set(['BAD_USER_INPUT', 'INVALID_OPERATION', 'FORBIDDEN', 'NOT_FOUND']);

/** An error a sandboxed plugin threw, as the host throws it: the SDK's classes, else a plain Error. */
export function errorFromSandbox(crossing: CrossingError, pluginId: string, kept: readonly unknown[]): Error {
  if (crossing.hostRef !== undefined && crossing.hostRef < kept.length) {
    const original = kept[crossing.hostRef];
    if (original instanceof Error) return original;
  }
  if (crossing.name === 'PluginPermissionError')
    return new PluginPermissionError(pluginId, String(crossing.permission ?? ''));
  if (crossing.name === 'PluginInputError') {
    const code =
      crossing.code && INPUT_CODES.has(crossing.code)
        ? (crossing.code as PluginInputError['options']['code'])
        : undefined;
    return new PluginInputError(String(crossing.message), { field: crossing.field, code });
  }
  const err = new Error(String(crossing.message));
  err.name = typeof crossing.name === 'string' ? crossing.name.slice(0, 100) : 'Error';
  return err;
}
