/**
 * The web platform a plugin's code and its npm packages expect, which a bare V8 isolate lacks:
 * Buffer, TextEncoder/TextDecoder, atob/btoa, console, timers and crypto.getRandomValues. Each is
 * pure JavaScript or borrows a pure function from the host; none reaches files, network or env.
 */
import { Buffer } from 'buffer';
import { encode, decode } from '../codec.ts';
import { host } from './bridge.ts';

const scope = globalThis as unknown as Record<string, unknown>;

scope.Buffer = Buffer;

class TextEncoderShim {
  readonly encoding = 'utf-8';
  encode(input = ''): Uint8Array {
    return new Uint8Array(Buffer.from(String(input), 'utf8'));
  }
}

class TextDecoderShim {
  readonly encoding = 'utf-8';
  decode(input?: ArrayBuffer | ArrayBufferView): string {
    if (!input) return '';
    const bytes =
      input instanceof ArrayBuffer
        ? new Uint8Array(input)
        : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    return Buffer.from(bytes).toString('utf8');
  }
}

scope.TextEncoder = TextEncoderShim;
scope.TextDecoder = TextDecoderShim;
scope.atob = (data: string) => Buffer.from(String(data), 'base64').toString('latin1');
scope.btoa = (data: string) => Buffer.from(String(data), 'latin1').toString('base64');
scope.queueMicrotask = (fn: () => void) => void Promise.resolve().then(fn);

const log =
  (level: 'info' | 'warn' | 'error') =>
  (...parts: unknown[]) => {
    host.sync(
      'log',
      encode([
        '',
        level,
        parts.map((p) => (typeof p === 'string' ? p : (JSON.stringify(p) ?? String(p)))).join(' '),
        {},
      ]),
    );
  };
scope.console = { log: log('info'), info: log('info'), debug: log('info'), warn: log('warn'), error: log('error') };

// Timers wait on the host's clock; a plugin's waits still count against the call's wall time.
let nextTimer = 1;
const cancelled = new Set<number>();
scope.setTimeout = (fn: (...args: unknown[]) => void, ms = 0, ...args: unknown[]) => {
  const id = nextTimer++;
  void host.call('', 'timer.sleep', encode([Number(ms) || 0])).then(() => {
    if (!cancelled.delete(id)) fn(...args);
  });
  return id;
};
scope.clearTimeout = (id: number) => void cancelled.add(id);

const random = (n: number): Buffer => decode(host.sync('crypto.random', encode([n]))) as Buffer;
scope.crypto = {
  getRandomValues<T extends ArrayBufferView>(array: T): T {
    const bytes = random(array.byteLength);
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(bytes);
    return array;
  },
  randomUUID: () => decode(host.sync('crypto.uuid', '[]')) as string,
};
