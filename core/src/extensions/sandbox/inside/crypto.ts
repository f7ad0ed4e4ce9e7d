/**
 * `node:crypto` as a sandboxed plugin sees it: the SHA family's hashes and HMACs (webhook signatures)
 * computed here by an audited JavaScript implementation, other algorithms and signatures by the
 * host on the bytes handed over, randomness from the host, comparisons in plain JavaScript.
 * Nothing here reads a key the plugin did not pass in.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js';
import type { CHash } from '@noble/hashes/utils.js';
import { Buffer } from 'buffer';
import { decode, encode } from '../codec.ts';
import { host } from './bridge.ts';

type BinaryLike = string | Uint8Array;
type Encoding = 'hex' | 'base64' | 'base64url' | 'latin1' | 'binary' | 'utf8' | 'utf-8';

const bytes = (data: BinaryLike, encoding?: Encoding): Buffer =>
  typeof data === 'string' ? Buffer.from(data, (encoding ?? 'utf8') as BufferEncoding) : Buffer.from(data);

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
    const out =
      this.here() ??
      (decode(host.sync(this.kind, encode([this.algorithm, this.key, Buffer.concat(this.chunks)]))) as Buffer);
    return encoding ? out.toString(encoding as BufferEncoding) : out;
  }

  /**
   * The common algorithms are computed in the isolate: a webhook's signature is checked on every
   * delivery, and handing its body to the host and back cost several times the hash itself.
   */
  private here(): Buffer | null {
    const hash = HERE[this.algorithm.toLowerCase()];
    if (!hash) return null;
    const state = this.key ? hmac.create(hash, this.key) : hash.create();
    for (const chunk of this.chunks) state.update(chunk);
    const out = state.digest();
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  }
}

const HERE: Record<string, CHash | undefined> = { sha1, sha256, sha384, sha512 };

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

/**
 * Signs `data` with a private key given as PEM (RS256 and ES256 JWTs for providers' service
 * accounts and API keys), as Node's `crypto.sign` does; the host signs, the key comes from the plugin.
 */
export function sign(
  algorithm: string | null | undefined,
  data: BinaryLike,
  key: string | { key: string; dsaEncoding?: 'der' | 'ieee-p1363' },
): Buffer {
  const { key: pem, dsaEncoding } = typeof key === 'string' ? { key, dsaEncoding: undefined } : key;
  return decode(
    host.sync('crypto.sign', encode([algorithm ?? null, String(pem), bytes(data), dsaEncoding ?? 'der'])),
  ) as Buffer;
}

export function randomBytes(size: number): Buffer {
  return decode(host.sync('crypto.random', encode([size]))) as Buffer;
}

export function randomUUID(): string {
  return decode(host.sync('crypto.uuid', '[]')) as string;
}

export default { createHmac, createHash, timingSafeEqual, randomBytes, randomUUID, sign };
