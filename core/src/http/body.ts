import type Koa from 'koa';
import { AppError } from '../errors/app-error.ts';

/**
 * A body past its route's limit: bad input, answered 413 with the limit in the message. The
 * client's mistake, so never an internal error, and never a dropped connection either.
 */
export class BodyTooLarge extends AppError {
  readonly limitBytes: number;

  constructor(limitBytes: number, what = 'The request body') {
    super('BAD_USER_INPUT', `${what} can be at most ${megabytes(limitBytes)}.`, { field: 'body' });
    this.limitBytes = limitBytes;
  }

  override get status(): number {
    return 413;
  }
}

/**
 * A body this much past its limit is not read to its end: the connection is closed instead. Up
 * to it the rest is read and dropped, so the client, still sending, gets the 413 rather than a
 * connection reset (a server that stops reading and closes makes the client's socket reset).
 */
const DRAIN_BYTES = 64 * 1024 * 1024;

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Reads and drops what is left of the request, up to DRAIN_BYTES; past that the connection closes. */
function drain(koa: Koa.Context, alreadyRead: number): Promise<void> {
  const req = koa.req;
  if (req.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    let read = alreadyRead;
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_BYTES) {
        koa.set('connection', 'close');
        finish();
      }
    };
    const finish = () => {
      req.off('data', onData).off('end', finish).off('error', finish);
      resolve();
    };
    req.on('data', onData).once('end', finish).once('error', finish);
    req.resume();
  });
}

/**
 * The request body as UTF-8 text, at most `limitBytes`; past that a BodyTooLarge (413) naming
 * the limit, after the rest of the body has been drained. `what` names the body in the message
 * ("A CSV file").
 */
export async function readBodyText(koa: Koa.Context, limitBytes: number, what?: string): Promise<string> {
  const declared = Number(koa.get('content-length') || 0);
  if (declared > limitBytes) {
    if (declared > DRAIN_BYTES) koa.set('connection', 'close');
    else await drain(koa, 0);
    throw new BodyTooLarge(limitBytes, what);
  }
  const req = koa.req;
  const chunks: Buffer[] = [];
  let size = 0;
  const complete = await new Promise<boolean>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        req.off('data', onData).off('end', onEnd).off('error', reject);
        chunks.length = 0;
        resolve(false);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(true);
    req.on('data', onData).once('end', onEnd).once('error', reject);
  });
  if (!complete) {
    await drain(koa, size);
    throw new BodyTooLarge(limitBytes, what);
  }
  return Buffer.concat(chunks).toString('utf8');
}
