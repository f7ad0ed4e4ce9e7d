import type Koa from 'koa';
import { specifiedRules, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http';
import { AppError } from '../errors/app-error.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import type { Logger } from '../logger.ts';
import { documentCache } from './document.ts';
import { formatError } from './errors.ts';
import { checkVariables, storableLiteralText } from './input-text.ts';
import { noAnonymousIntrospection } from './introspection.ts';
import { limitRules } from './limits.ts';

/** About 10 MB (002 §9 message-size constant); larger bodies get 413. */
export const MAX_BODY_BYTES = 10_485_760;

export interface GraphqlRouteOptions {
  schema: GraphQLSchema;
  logger: Logger;
  buildContext(ctx: Koa.Context): Promise<RequestContext>;
  /** Whether requests without a signed-in person may introspect the schema. */
  anonymousIntrospection: boolean;
}

/** POST (and GET for queries) /api/graphql, per the GraphQL-over-HTTP spec, via graphql-http. */
export function graphqlRoute(opts: GraphqlRouteOptions): Koa.Middleware {
  const limits = limitRules();
  const documents = documentCache({ precheck: limits });
  const rules = [...specifiedRules, ...limits, storableLiteralText];
  const anonymousRules = opts.anonymousIntrospection ? rules : [...rules, noAnonymousIntrospection];
  const handler = createHandler<
    Koa.Context,
    { requestContext: RequestContext },
    RequestContext & Record<PropertyKey, unknown>
  >({
    schema: opts.schema,
    parse: documents.parse,
    validate: documents.validate,
    // Variables are checked before the document is even parsed: text PostgreSQL would refuse.
    onSubscribe: (_req, params) => {
      const refused = checkVariables(params.variables);
      return refused ? [refused] : undefined;
    },
    validationRules: (req) => (req.context.requestContext.viewer ? rules : anonymousRules),
    context: (req) => req.context.requestContext as RequestContext & Record<PropertyKey, unknown>,
    formatError: formatError(opts.logger),
  });

  return async (ctx) => {
    const body = ctx.method === 'POST' ? await readBody(ctx) : null;
    if (body === undefined) return; // answered 413
    let requestContext: RequestContext;
    try {
      requestContext = await opts.buildContext(ctx);
    } catch (err) {
      answerError(ctx, err, opts.logger);
      return;
    }
    let answer: Awaited<ReturnType<typeof handler>>;
    try {
      answer = await handler({
        method: ctx.method,
        url: ctx.url,
        headers: { get: (key: string) => ctx.get(key) || null },
        body: () => body ?? '',
        raw: ctx,
        context: { requestContext },
      });
    } catch (err) {
      // graphql-http throws on a body it cannot parse: that is the client's mistake, not ours.
      if (
        err instanceof Error &&
        /^(Unparsable JSON body|Unparsable URL|JSON body must be an object|Missing body)$/.test(err.message)
      ) {
        answerError(ctx, new AppError('BAD_USER_INPUT', 'The request body is not valid JSON.'), opts.logger);
        return;
      }
      throw err;
    }
    const [payload, init] = answer;
    ctx.status = init.status;
    for (const [k, v] of Object.entries(init.headers ?? {})) if (v) ctx.set(k, v);
    // A resolver refused for too many requests (sign-in limits): HTTP says so too, with when to retry.
    const retryAfter = (ctx.state as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof retryAfter === 'number') {
      ctx.status = 429;
      ctx.set('retry-after', String(retryAfter));
    }
    ctx.body = payload ?? '';
  };
}

/** Reads the body with stream events (an async iterator costs noticeably more per request). */
function readBody(ctx: Koa.Context): Promise<string | null | undefined> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > MAX_BODY_BYTES) return Promise.resolve(tooLarge(ctx));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const req = ctx.req;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        req.resume(); // drain the rest unread
        resolve(tooLarge(ctx));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    );
    req.once('error', reject);
  });
}

function tooLarge(ctx: Koa.Context): undefined {
  ctx.status = 413;
  ctx.body = {
    errors: [
      {
        message: 'The request body is larger than 10 MB.',
        extensions: { errorCode: 'BAD_USER_INPUT', humanReadable: true },
      },
    ],
  };
  return undefined;
}

/** Errors raised before GraphQL runs (authentication, workspace lookup) keep the GraphQL shape. */
function answerError(ctx: Koa.Context, err: unknown, logger: Logger): void {
  if (err instanceof AppError) {
    ctx.status = err.status;
    ctx.body = {
      errors: [
        {
          message: err.message,
          extensions: {
            errorCode: err.errorCode,
            code: err.errorCode,
            humanReadable: err.humanReadable,
            ...(err.field ? { field: err.field } : {}),
          },
        },
      ],
    };
    return;
  }
  logger.error({ err }, 'failed to build request context');
  ctx.status = 500;
  ctx.body = {
    errors: [
      {
        message: 'Something went wrong on our side. Please try again.',
        extensions: { errorCode: 'INTERNAL_SERVER_ERROR', humanReadable: true },
      },
    ],
  };
}
