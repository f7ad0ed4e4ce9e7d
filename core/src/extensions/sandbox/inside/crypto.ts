/**
 * `node:crypto` as a sandboxed plugin sees it: HMACs and hashes (webhook signatures) computed by
 * the host on the bytes handed over, randomness from the host, comparisons in plain JavaScript.
 * Nothing here reads a key the plugin did not pass in.
 */
import { Buffer } from 'buffer';
import { decode, encode } from '../codec.ts';
import { host } from './bridge.ts';

type BinaryLike = string | Uint8Array;
type Encoding = 'hex' | 'base64' | 'base64url' | 'latin1' | 'binary' | 'utf8' | 'utf-8';

const bytes = (data: BinaryLike, encoding?: Encoding): Buffer => (typeof data === 'string' ? Buffer.from(data, (encoding ?? 'utf8') as BufferEncoding) : Buffer.from(data));

class Digest {
  private readonly chunks: Buffer[] = [];
  constructor(
    private readonly kind: 'crypto.hmac' | 'crypto.hash',
    private readonly algorithm: string,
    private readonly key: Buffer | null,
  ) {}

  update(data: BinaryLike, encoding?: Encoding): this {
    this.chunks.push(bytes(data, encoding));
    return this;
  }

  digest(): Buffer;
  digest(encoding: Encoding): string;
  digest(encoding?: Encoding): Buffer | string {
    const out = decode(host.sync(this.kind, encode([this.algorithm, this.key, Buffer.concat(this.chunks)]))) as Buffer;
    return encoding ? out.toString(encoding as BufferEncoding) : out;
  }
}

export function createHmac(algorithm: string, key: BinaryLike): Digest {
  return new Digest('crypto.hmac', algorithm, bytes(key));
}

export function createHash(algorithm: string): Digest {
  return new Digest('crypto.hash', algorithm, null);
}

/** Throws on different lengths, as Node does; otherwise compares every byte. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) throw new RangeError('Input buffers must have the same byte length');
  let diff = 0;
  for (let i = 0; i < a.byteLength; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export function randomBytes(size: number): Buffer {
  return decode(host.sync('crypto.random', encode([size]))) as Buffer;
}

export function randomUUID(): string {
  return decode(host.sync('crypto.uuid', '[]')) as string;
}

export default { createHmac, createHash, timingSafeEqual, randomBytes, randomUUID };
