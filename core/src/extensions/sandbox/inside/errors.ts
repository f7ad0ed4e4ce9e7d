/**
 * Errors across the boundary, inside the isolate. The SDK's own errors are thrown again as the
 * SDK's classes, so a plugin's `instanceof` checks work; an error the host threw into a call keeps
 * a reference, so when the plugin lets it through the host gets its original back.
 */
import { PluginInputError, PluginPermissionError, type PluginInputErrorCode } from '@fieldbook/extensions-sdk/server';
import type { CrossingError } from '../codec.ts';

const hostRefs = new WeakMap<object, number>();

export function fromHost(crossing: CrossingError, pluginId: string): Error {
  let err: Error;
  if (crossing.name === 'PluginPermissionError') err = new PluginPermissionError(pluginId, crossing.permission ?? '');
  else if (crossing.name === 'PluginInputError')
    err = new PluginInputError(crossing.message, {
      field: crossing.field,
      code: crossing.code as PluginInputErrorCode | undefined,
    });
  else {
    err = new Error(crossing.message);
    err.name = crossing.name;
    if (crossing.code) Object.assign(err, { errorCode: crossing.code, field: crossing.field });
  }
  if (crossing.hostRef !== undefined) hostRefs.set(err, crossing.hostRef);
  return err;
}

export function toHost(err: unknown): CrossingError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const out: CrossingError = { name: err.name, message: err.message };
  const ref = hostRefs.get(err);
  if (ref !== undefined) out.hostRef = ref;
  if (err instanceof PluginPermissionError) out.permission = err.permission;
  if (err instanceof PluginInputError) {
    out.field = err.options.field;
    out.code = err.options.code;
  }
  return out;
}
