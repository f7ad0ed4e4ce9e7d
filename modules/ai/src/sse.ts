import { PassThrough } from 'node:stream';
import type Koa from 'koa';
import { AppError } from '@fieldbook/core';

export interface EventSink {
  send(event: string, data: unknown): void;
  /** Aborted when the person closes the page: the model call stops too. */
  readonly signal: AbortSignal;
}

/**
 * Answers a request with server-sent events. Plain HTTP streaming fits the Koa stack as it is
 * (GraphQL runs over graphql-http, which has no subscriptions) and reaches the browser through
 * `fetch`, which, unlike EventSource, sends the bearer token. Errors before the first event are
 * ordinary HTTP errors; later ones are an `error` event with the code and message.
 */
export function streamEvents(koa: Koa.Context, run: (sink: EventSink) => Promise<void>): void {
  const body = new PassThrough();
  const controller = new AbortController();
  koa.req.on('close', () => controller.abort());
  koa.status = 200;
  koa.set('content-type', 'text/event-stream; charset=utf-8');
  koa.set('cache-control', 'no-store');
  koa.set('x-accel-buffering', 'no');
  koa.body = body;
  const sink: EventSink = {
    signal: controller.signal,
    send(event, data) {
      if (!body.writableEnded) body.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
  };
  run(sink)
    .catch((err: unknown) => {
      const e = err instanceof AppError ? err : null;
      sink.send('error', {
        errorCode: e?.errorCode ?? 'INTERNAL_SERVER_ERROR',
        message: e?.humanReadable ? e.message : 'Something went wrong; try again.',
      });
    })
    .finally(() => body.end());
}
