/**
 * Type tests of automation actions, checked by the compiler (the project's typecheck, and
 * actions.types.test.ts in the test run): an action's `params` must follow its own `parameters`
 * with no annotation in `execute`. An `@ts-expect-error` that stops erroring fails too.
 */
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import { defineAction, definePlugin, type AutomationTrigger, type InstallationContext } from './index.ts';

definePlugin({
  id: 'typed-actions',
  name: 'Typed actions',
  version: '1.0.0',
  sdk: '^1',
  permissions: ['notes:write'],
  settings: { projectId: { kind: 'project', label: 'Project' } },
  server: {
    actions: [
      {
        key: 'post',
        title: 'Post',
        parameters: z.object({ channelIds: z.array(z.string()).min(1), text: z.string() }),
        async execute(ctx, params, trigger) {
          expectTypeOf(params).toEqualTypeOf<{ channelIds: string[]; text: string }>();
          expectTypeOf(trigger).toEqualTypeOf<AutomationTrigger>();
          // The context still follows the declaration: the declared scope and settings are there.
          expectTypeOf(ctx.notes.create).toBeFunction();
          expectTypeOf(ctx.installation.settings.projectId).toEqualTypeOf<string | undefined>();
          // @ts-expect-error a parameter the schema does not have
          void params.channel;
          return { summary: params.text };
        },
      },
      {
        key: 'count',
        title: 'Count',
        // Each action keeps its own schema's type, and transforms give their output.
        parameters: z.object({ limit: z.string().transform((s) => Number(s)) }),
        async execute(_ctx, params) {
          expectTypeOf(params).toEqualTypeOf<{ limit: number }>();
        },
      },
    ],
  },
});

type NotesCtx = InstallationContext<'notes:write'>;

/** An action in a file of its own: the context is the one `execute` names. */
const standalone = defineAction({
  key: 'standalone',
  title: 'Standalone',
  parameters: z.object({ projectId: z.uuid() }),
  async execute(ctx: NotesCtx, params) {
    expectTypeOf(params).toEqualTypeOf<{ projectId: string }>();
    await ctx.notes.create({ projectId: params.projectId, title: 'x', text: 'y' });
  },
});

definePlugin({
  id: 'standalone-action',
  name: 'Standalone action',
  version: '1.0.0',
  sdk: '^1',
  permissions: ['notes:write'],
  server: { actions: [standalone] },
});

definePlugin({
  id: 'no-scope',
  name: 'No scope',
  version: '1.0.0',
  sdk: '^1',
  permissions: [],
  server: {
    // @ts-expect-error an action that needs notes:write, in a plugin that did not declare it
    actions: [standalone],
  },
});
