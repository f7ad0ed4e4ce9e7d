import type Router from '@koa/router';
import { z } from 'zod';
import { badInput, findUnstorableText, MAX_INPUT_DEPTH, validate, type ModuleContext } from '@fieldbook/core';
import { readJson, streamEvents } from '@fieldbook/ai';
import { answerConfirmation, sendMessage, type RunDeps, type RunSink } from '../conversations/run.ts';
import { messageSchema } from '../conversations/store.ts';
import { conversationView } from '../conversations/views.ts';
import { memberOf } from '../tools/access.ts';

const idParam = z.uuid({ error: 'id must be the id of a conversation.' });

/**
 * The conversation, streamed: POST …/messages with { text } and POST …/confirm with { confirmed }
 * answer server-sent events: `message` for each stored message, `delta` for text as the model
 * writes it, `confirm` when the agent waits for the person, then `done` with the conversation.
 */
export function agentRoutes(router: Router, ctx: ModuleContext, deps: RunDeps): void {
  const stream = (
    path: string,
    body: z.ZodObject,
    run: (
      request: Awaited<ReturnType<ModuleContext['requestContext']>>,
      id: string,
      input: Record<string, unknown>,
      sink: RunSink,
    ) => ReturnType<typeof sendMessage>,
  ) => {
    router.post(path, async (koa) => {
      const request = await ctx.requestContext(koa);
      memberOf(request);
      const id = validate(idParam, koa.params.id);
      const json = await readJson(koa.req);
      // Text PostgreSQL would refuse is bad input, as GraphQL says it, before the stream starts.
      const unstorable = findUnstorableText(json, '', MAX_INPUT_DEPTH);
      if (unstorable) throw badInput(unstorable.path, `${unstorable.path} ${unstorable.problem}.`);
      const input = validate(body, json) as Record<string, unknown>;
      streamEvents(koa, async (sink) => {
        const outcome = await run(request, id, input, {
          send: (event: string, data: unknown) => sink.send(event, data),
          signal: sink.signal,
        } as RunSink);
        sink.send('done', conversationView(outcome.conversation));
      });
    });
  };
  stream('/api/agents/conversations/:id/messages', z.object({ text: messageSchema }), (request, id, input, sink) =>
    sendMessage(deps, request, id, input.text as string, sink),
  );
  stream(
    '/api/agents/conversations/:id/confirm',
    z.object({ confirmed: z.boolean({ error: 'confirmed must be true or false.' }) }),
    (request, id, input, sink) => answerConfirmation(deps, request, id, input.confirmed as boolean, sink),
  );
}
