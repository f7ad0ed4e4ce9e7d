import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallUsage } from './store.ts';

/**
 * The model call a running tool was asked for by, so what the tool makes (a note) records that
 * call's model and tokens without every tool taking them as an argument.
 */
const current = new AsyncLocalStorage<CallUsage | undefined>();

export const withCallUsage = <T>(usage: CallUsage | undefined, fn: () => Promise<T>): Promise<T> =>
  current.run(usage, fn);

/** The usage of the model call the running tool serves; undefined outside an agent (MCP). */
export const callUsage = (): CallUsage | undefined => current.getStore();
