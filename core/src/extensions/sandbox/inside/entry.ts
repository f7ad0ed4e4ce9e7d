/**
 * What the host calls inside a plugin's isolate. The bundle imports this first (the globals must
 * exist before any of the plugin's modules run), then the plugin, and hands the plugin's
 * definition to `__fieldbookPlugin`. The host reaches contributions by path: `action.0.execute`,
 * `webhook.1.verify`, `installationWebhook.verify`, `job.sync.handler`, `tool.0.execute`, `query.slackChannels`, `importSource.0.list`,
 * `oauth.exchange`, `setup`.
 */
import './bridge.ts';
import './globals.ts';
import './url.ts';
import { toolInputSchema, type PluginDefinition } from '@fieldbook/extensions-sdk/server';
import { decode, encode, type ContextDescription, type Outcome, type PluginDescription } from '../codec.ts';
import { contextFrom } from './context.ts';
import { toHost } from './errors.ts';
import { Headers, Request, Response } from './http.ts';

type Handler = (...args: unknown[]) => unknown;

const scope = globalThis as unknown as Record<string, unknown>;
scope.Headers = Headers;
scope.Response = Response;
scope.Request = Request;

function definition(): PluginDefinition {
  const plugin = scope.__fieldbookPlugin as PluginDefinition | undefined;
  if (!plugin || typeof plugin !== 'object' || !('manifest' in plugin) || !('server' in plugin))
    throw new Error('The server entry must default-export definePlugin(...).');
  return plugin;
}

function bound(owner: object | undefined, name: string): Handler {
  const fn = owner ? (owner as Record<string, unknown>)[name] : undefined;
  if (typeof fn !== 'function') throw new Error(`The plugin has no ${name} here.`);
  return (...args) => (fn as Handler).apply(owner, args);
}

/** One part of a delivery's intake as it crosses: its value, or the message of what it threw. */
type Part = { ok: unknown } | { error: string };

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function part(fn: () => unknown): Promise<Part> {
  try {
    return { ok: await fn() };
  } catch (err) {
    return { error: messageOf(err) };
  }
}

/** The same for the contract's synchronous functions: a promise is refused, as invokeSync does. */
function partSync(name: string, fn: () => unknown): Part {
  try {
    const value = fn();
    if (value instanceof Promise) throw new Error(`${name} must answer at once, not with a promise.`);
    return { ok: value };
  } catch (err) {
    return { error: messageOf(err) };
  }
}

/** Whether a verifier's part says the delivery verified. */
const verifiedBy = (verdict: Part): boolean =>
  'ok' in verdict &&
  typeof verdict.ok === 'object' &&
  verdict.ok !== null &&
  (verdict.ok as { ok?: unknown }).ok === true;

/** A verified delivery's ids, which the contract has answered at once. */
function idsOf(hook: Record<string, unknown> | undefined, request: unknown): { eventId: Part; externalId: Part } {
  return {
    eventId: partSync('eventId', () => bound(hook, 'eventId')(request)),
    externalId:
      typeof hook?.externalId === 'function'
        ? partSync('externalId', () => bound(hook, 'externalId')(request))
        : { ok: null },
  };
}

/**
 * A delivery's whole intake in one call (`webhook.0.intake`): verify, and only when it verified,
 * respond and the delivery's ids. One crossing instead of four for every delivery.
 */
function intakeOf(hook: Record<string, unknown> | undefined): Handler {
  const fn = (name: string) => bound(hook, name);
  return async (request, ctx) => {
    const verdict = await part(() => fn('verify')(request, ctx));
    if (!verifiedBy(verdict)) return { verdict };
    const answer = typeof hook?.respond === 'function' ? await part(() => fn('respond')(request, ctx)) : { ok: null };
    return { verdict, answer, ...idsOf(hook, request) };
  };
}

/** A function's part if it answered at once; null, its promise left to settle unheard, if it did not. */
function atOnce(call: () => unknown): Part | null {
  try {
    const value = call();
    if (typeof (value as { then?: unknown } | null)?.then === 'function') {
      (value as Promise<unknown>).then(undefined, () => undefined);
      return null;
    }
    return { ok: value };
  } catch (err) {
    return { error: messageOf(err) };
  }
}

/**
 * The same intake answered at once (`webhook.0.intakeSync`), which the host calls on its own
 * thread without a crossing to the isolate's: for a verifier and `respond` that answer at once, as
 * signature checks do. One that answers with a promise gets `{ async: true }`, and the host calls
 * `intake` instead; the promise left behind can reach nothing, as its call has ended.
 */
function intakeSyncOf(hook: Record<string, unknown> | undefined): Handler {
  const fn = (name: string) => bound(hook, name);
  return (request, ctx) => {
    const verdict = atOnce(() => fn('verify')(request, ctx));
    if (!verdict) return { async: true };
    if (!verifiedBy(verdict)) return { verdict };
    const answer = typeof hook?.respond === 'function' ? atOnce(() => fn('respond')(request, ctx)) : { ok: null };
    if (!answer) return { async: true };
    return { verdict, answer, ...idsOf(hook, request) };
  };
}

function target(path: string): Handler {
  const { server } = definition();
  const [kind, key = '', member = ''] = path.split('.');
  switch (kind) {
    case 'setup':
      return bound(server, 'setup');
    case 'webhook':
      if (member === 'intake') return intakeOf(server.webhooks?.[Number(key)] as Record<string, unknown> | undefined);
      if (member === 'intakeSync')
        return intakeSyncOf(server.webhooks?.[Number(key)] as Record<string, unknown> | undefined);
      return bound(server.webhooks?.[Number(key)], member);
    case 'installationWebhook':
      if (key === 'intake') return intakeOf(server.installationWebhook as Record<string, unknown> | undefined);
      if (key === 'intakeSync') return intakeSyncOf(server.installationWebhook as Record<string, unknown> | undefined);
      return bound(server.installationWebhook, key);
    case 'job':
      return bound(server.jobs?.[key], 'handler');
    case 'action': {
      const action = server.actions?.[Number(key)];
      if (member !== 'parameters') return bound(action, 'execute');
      return (value) => {
        const parsed = action!.parameters.safeParse(value);
        return parsed.success
          ? { success: true, data: parsed.data }
          : {
              success: false,
              issues: parsed.error.issues.map((i) => ({ message: i.message, path: i.path.map(String) })),
            };
      };
    }
    case 'tool': {
      const tool = server.tools?.[Number(key)];
      if (member !== 'input') return bound(tool, 'execute');
      return (value) => {
        const parsed = tool!.input.safeParse(value);
        return parsed.success
          ? { success: true, data: parsed.data }
          : {
              success: false,
              issues: parsed.error.issues.map((i) => ({ message: i.message, path: i.path.map(String) })),
            };
      };
    }
    case 'oauth':
      return bound(server.oauth, key);
    case 'importSource': {
      const source = server.importSources?.[Number(key)];
      if (member !== 'settings') return bound(source, 'list');
      return (value) => {
        const parsed = source!.settings.safeParse(value);
        return parsed.success
          ? { success: true, data: parsed.data }
          : {
              success: false,
              issues: parsed.error.issues.map((i) => ({ message: i.message, path: i.path.map(String) })),
            };
      };
    }
    case 'query':
    case 'mutation':
      return bound(server.graphql?.[kind], key);
    default:
      throw new Error(`Nothing to call at ${path}.`);
  }
}

function argumentsOf(token: string, ctxJson: string, argsJson: string, ctxIndex: number): unknown[] {
  const args = decode(argsJson) as unknown[];
  if (ctxIndex >= 0) {
    const ctx = contextFrom(decode(ctxJson) as ContextDescription, token);
    // GraphQL resolvers receive the context merged with the viewer; everything else gets it as is.
    args.splice(ctxIndex, 0, ctx);
  }
  return args;
}

scope.__fieldbookInvoke = async (
  path: string,
  token: string,
  ctxJson: string,
  argsJson: string,
  ctxIndex: number,
): Promise<string> => {
  let outcome: Outcome;
  try {
    outcome = { ok: await target(path)(...argumentsOf(token, ctxJson, argsJson, ctxIndex)) };
  } catch (err) {
    outcome = { error: toHost(err) };
  }
  return encode(outcome);
};

scope.__fieldbookInvokeSync = (
  path: string,
  token: string,
  ctxJson: string,
  argsJson: string,
  ctxIndex: number,
): string => {
  let outcome: Outcome;
  try {
    const value = target(path)(...argumentsOf(token, ctxJson, argsJson, ctxIndex));
    if (value instanceof Promise) throw new Error(`${path} must answer at once, not with a promise.`);
    outcome = { ok: value };
  } catch (err) {
    outcome = { error: toHost(err) };
  }
  return encode(outcome);
};

scope.__fieldbookDescribe = (): string => {
  const plugin = definition();
  const { server } = plugin;
  const description: PluginDescription = {
    manifest: plugin.manifest,
    settings: plugin.settings,
    config: plugin.config,
    webhooks: (server.webhooks ?? []).map((h) => ({
      path: h.path,
      respond: typeof h.respond === 'function',
      notes: typeof h.notesFor === 'function',
    })),
    installationWebhook: server.installationWebhook
      ? { respond: typeof server.installationWebhook.respond === 'function' }
      : null,
    jobs: Object.entries(server.jobs ?? {}).map(([name, job]) => ({ name, retryLimit: job.retryLimit })),
    actions: (server.actions ?? []).map((a) => ({ key: a.key, title: a.title, description: a.description })),
    tools: (server.tools ?? []).map((t) => ({
      name: t.name,
      description: t.description,
      access: t.access,
      needsConfirmation: t.needsConfirmation,
      inputSchema: toolInputSchema(t.input),
    })),
    oauth: server.oauth ? { level: server.oauth.level } : null,
    graphql: server.graphql
      ? {
          typeDefs: server.graphql.typeDefs,
          query: Object.keys(server.graphql.query ?? {}),
          mutation: Object.keys(server.graphql.mutation ?? {}),
        }
      : null,
    setup: typeof server.setup === 'function',
    importSources: (server.importSources ?? []).map((s) => ({
      kind: s.kind,
      label: s.label,
      description: s.description,
      fields: s.fields,
      fieldTypes: s.fieldTypes,
    })),
  };
  return encode(description);
};
