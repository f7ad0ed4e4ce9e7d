/**
 * The context a plugin's handler receives inside the isolate. Its data (plugin, config,
 * installation, viewer) is a copy; each method sends its arguments to the host, which runs the
 * same capability-checked context a trusted plugin gets and sends the answer back.
 */
import { PluginPermissionError } from '@fieldbook/extensions-sdk/server';
import { decode, encode, type ContextDescription, type CrossingResponse, type Outcome } from '../codec.ts';
import { host } from './bridge.ts';
import { fromHost } from './errors.ts';
import { crossingRequest, Request, Response } from './http.ts';

export async function remote(token: string, pluginId: string, path: string, args: unknown[]): Promise<unknown> {
  const outcome = decode(await host.call(token, path, encode(args))) as Outcome;
  if ('error' in outcome) throw fromHost(outcome.error, pluginId);
  return outcome.ok;
}

export function contextFrom(desc: ContextDescription, token: string): Record<string, unknown> {
  const id = desc.plugin.id;
  const call =
    (path: string) =>
    (...args: unknown[]) =>
      remote(token, id, path, args);
  const log = (level: 'info' | 'warn' | 'error') => (message: string, fields?: Record<string, unknown>) => {
    host.sync('log', encode([token, level, String(message), fields ?? {}]));
  };
  const ctx: Record<string, unknown> = {
    plugin: desc.plugin,
    config: desc.config,
    publicUrl: desc.publicUrl,
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    http: {
      async fetch(input: string | URL | Request, init?: ConstructorParameters<typeof Request>[1]) {
        const request = new Request(input, init);
        const res = (await remote(token, id, 'http.fetch', [
          request.url,
          crossingRequest(request),
        ])) as CrossingResponse;
        return Response.fromCrossing(res);
      },
    },
  };
  if (desc.viewer) ctx.viewer = desc.viewer;
  if (!desc.installation) return ctx;
  Object.assign(ctx, {
    installation: desc.installation,
    jobs: { send: call('jobs.send') },
    saveConnectionTokens: call('saveConnectionTokens'),
    userConnection: call('userConnection'),
    saveUserConnectionTokens: call('saveUserConnectionTokens'),
    disconnect: call('disconnect'),
  });
  // As on the host: an undeclared capability is a getter that throws, whatever the types claimed.
  const capabilities: Record<string, { scope: string; build: () => object }> = {
    notes: { scope: 'notes:write', build: () => ({ create: call('notes.create'), get: call('notes.get') }) },
    projects: { scope: 'projects:read', build: () => ({ list: call('projects.list') }) },
  };
  for (const [name, capability] of Object.entries(capabilities)) {
    const granted = desc.granted.includes(name);
    Object.defineProperty(ctx, name, {
      enumerable: granted,
      get: granted
        ? capability.build
        : () => {
            throw new PluginPermissionError(id, capability.scope);
          },
    });
  }
  return ctx;
}
