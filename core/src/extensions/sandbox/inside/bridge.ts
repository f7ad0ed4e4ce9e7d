/**
 * The two ways out of the isolate, set by the host before the bundle runs and taken off the global
 * object at once, so a plugin's code can reach them only through the context built here.
 */

/** What isolated-vm puts in the isolate for a host function (its `Reference`). */
interface HostReference {
  apply(receiver: undefined, args: string[], options: { result: { promise: true; copy: true } }): Promise<string>;
  applySync(receiver: undefined, args: string[], options: { result: { copy: true } }): string;
}

const scope = globalThis as unknown as { __fieldbookCall?: HostReference; __fieldbookSync?: HostReference };
const callRef = scope.__fieldbookCall!;
const syncRef = scope.__fieldbookSync!;
delete scope.__fieldbookCall;
delete scope.__fieldbookSync;

export const host = {
  /** A context method of the call `token` (`notes.create`, `http.fetch`, ...): arguments and answer encoded. */
  call: (token: string, path: string, args: string): Promise<string> =>
    callRef.apply(undefined, [token, path, args], { result: { promise: true, copy: true } }),
  /** Logging and the few pure functions the host lends (HMAC, hashes, randomness). */
  sync: (name: string, args: string): string => syncRef.applySync(undefined, [name, args], { result: { copy: true } }),
};
