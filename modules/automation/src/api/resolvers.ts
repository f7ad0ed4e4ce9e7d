import { z } from 'zod';
import {
  AppError,
  COMPOSITE_TRIGGERS,
  TRIGGER_EVENTS,
  forbidden,
  resolveTrigger,
  validate,
  type ModuleGraphql,
  type RequestContext,
} from '@fieldbook/core';
import { assertMayAutomate } from '../automations/save.ts';
import type { AutomationDeps } from '../deps.ts';
import type { AutomationRow, RunActionRow } from '../automations/rows.ts';
import {
  assertAdmin,
  automationFor,
  createAutomation,
  deleteAutomation,
  lastRun,
  listAutomations,
  listRuns,
  setEnabled,
  updateAutomation,
  type RunView,
} from '../automations/store.ts';
import { dryRun } from '../runs/dry-run.ts';
import { emailDomainsSchema } from '../actions/email-domains.ts';
import { settingsOf } from '../runs/rate.ts';
import { isTimeZone } from '../triggers/schedule.ts';
import { operatorsFor, type FieldType } from '../rules/operators.ts';
import { automationTypeDefs } from './schema.ts';

type Args = Record<string, unknown>;

function eventView(key: string) {
  const t = resolveTrigger(key);
  return {
    key,
    title: t.title,
    events: t.events.map((e) => e.key),
    composite: key in COMPOSITE_TRIGGERS,
    context:
      t.events.length === 1
        ? t.events[0]!.context
        : t.events[0]!.context.filter((k) => t.events.every((e) => e.context.includes(k))),
    configure: t.configure,
    fields: t.fields.map((f) => ({ ...f, operators: operatorsFor(f.type as FieldType) })),
  };
}

const settingsArgs = z.object({
  timeZone: z.string().refine(isTimeZone, 'timeZone must be a time zone such as Europe/Paris.').nullish(),
  runsPerMinute: z
    .number()
    .int()
    .min(1, 'runsPerMinute must be at least 1.')
    .max(100_000, 'runsPerMinute can be at most 100,000.')
    .nullish(),
  emailDomains: emailDomainsSchema.nullish(),
});

/** The automation module's GraphQL part. */
export function automationGraphql(deps: AutomationDeps): ModuleGraphql {
  return {
    typeDefs: automationTypeDefs,
    resolvers: {
      Query: {
        automationEvents: (_p: unknown, _a: Args, ctx: RequestContext) => {
          ctx.authorize('projects:read');
          return [...TRIGGER_EVENTS.map((e) => e.key), ...Object.keys(COMPOSITE_TRIGGERS)].map(eventView);
        },
        automationActions: (_p: unknown, _a: Args, ctx: RequestContext) => {
          ctx.authorize('projects:read');
          return deps.actionTypes().map((t) => ({
            actionType: t.actionType,
            pluginId: t.pluginId ?? null,
            title: t.title,
            description: t.description,
            unavailable: t.unavailable ?? null,
            needsContext: t.needsContext ?? [],
          }));
        },
        automations: (_p: unknown, _a: Args, ctx: RequestContext) => listAutomations(deps, ctx),
        automation: (_p: unknown, args: Args, ctx: RequestContext) =>
          automationFor(deps, ctx, validate(z.object({ id: z.uuid({ error: 'id must be a valid id.' }) }), args).id),
        automationRuns: (_p: unknown, args: Args, ctx: RequestContext) => listRuns(deps, ctx, args),
        automationSettings: (_p: unknown, _a: Args, ctx: RequestContext) => {
          const { workspace } = ctx.authorize('projects:read');
          return ctx.tx((trx) => settingsOf(trx, workspace.id, deps.options.defaultRunsPerMinute));
        },
      },
      Mutation: {
        createAutomation: (_p: unknown, args: Args, ctx: RequestContext) => createAutomation(deps, ctx, args),
        updateAutomation: (_p: unknown, args: Args, ctx: RequestContext) => updateAutomation(deps, ctx, args),
        setAutomationEnabled: (_p: unknown, args: Args, ctx: RequestContext) => setEnabled(deps, ctx, args),
        deleteAutomation: (_p: unknown, args: Args, ctx: RequestContext) => deleteAutomation(deps, ctx, args),
        dryRunAutomation: async (_p: unknown, args: Args, ctx: RequestContext) => {
          const input = validate(
            z.object({
              id: z.uuid({ error: 'id must be a valid id.' }),
              runId: z.uuid({ error: 'runId must be a valid id.' }).nullish(),
              eventKey: z.string().nullish(),
              payload: z.unknown().optional(),
            }),
            args,
          );
          return dryRun(deps, ctx, await automationFor(deps, ctx, input.id), input);
        },
        runAutomation: async (_p: unknown, args: Args, ctx: RequestContext) => {
          const input = validate(
            z.object({
              id: z.uuid({ error: 'id must be a valid id.' }),
              payload: z.record(z.string(), z.unknown()).nullish(),
            }),
            args,
          );
          const automation = await automationFor(deps, ctx, input.id);
          if (automation.event_key !== 'manual')
            throw new AppError('INVALID_OPERATION', 'Only an automation with a manual trigger can be run by hand.');
          await assertMayAutomate(deps, ctx, automation.trigger);
          return ctx.tx((trx) =>
            deps.events.publish(
              'manual',
              automation.workspace_id,
              { ...(input.payload ?? {}), automationId: automation.id },
              trx,
            ),
          );
        },
        recordUserActivity: (_p: unknown, args: Args, ctx: RequestContext) => {
          const { viewer, workspace, membership } = ctx.authorize('projects:read');
          const payload = (args.payload ?? {}) as Record<string, unknown>;
          if (
            payload.user_id !== viewer.userId &&
            !membership.workspaceAdmin &&
            membership.effectiveRole !== 'WORKSPACE_ADMIN'
          ) {
            throw forbidden('Only workspace admins can report another person’s activity.');
          }
          return ctx.tx((trx) => deps.events.publish('user:activity', workspace.id, payload, trx));
        },
        updateAutomationSettings: async (_p: unknown, args: Args, ctx: RequestContext) => {
          assertAdmin(ctx);
          const input = validate(settingsArgs, args);
          const workspaceId = ctx.workspace!.id;
          return ctx.tx(async (trx) => {
            const current = await settingsOf(trx, workspaceId, deps.options.defaultRunsPerMinute);
            const next = {
              timeZone: input.timeZone ?? current.timeZone,
              runsPerMinute: input.runsPerMinute ?? current.runsPerMinute,
              emailDomains: input.emailDomains ?? current.emailDomains,
            };
            const row = {
              time_zone: next.timeZone,
              runs_per_minute: next.runsPerMinute,
              email_domains: next.emailDomains,
            };
            await trx('automation_settings')
              .insert({ workspace_id: workspaceId, ...row })
              .onConflict('workspace_id')
              .merge({ ...row, updated_at: trx.fn.now() });
            return next;
          });
        },
      },
      Automation: {
        ownerId: (a: AutomationRow) => a.owner_id,
        projectId: (a: AutomationRow) => a.project_id,
        disabledReason: (a: AutomationRow) => a.disabled_reason,
        nextRunAt: (a: AutomationRow) => a.next_run_at,
        createdAt: (a: AutomationRow) => a.created_at,
        updatedAt: (a: AutomationRow) => a.updated_at,
        trigger: (a: AutomationRow) => ({ ...a.trigger, configure: a.trigger.configure ?? {} }),
        actions: (a: AutomationRow) => a.actions.map((x) => ({ ...x, pluginId: x.pluginId ?? null })),
        lastRun: (a: AutomationRow, _args: Args, ctx: RequestContext) => lastRun(ctx, a.id),
        // The same check saving and running make, so the screens offer only what the server allows.
        viewerCanEdit: (a: AutomationRow, _args: Args, ctx: RequestContext) =>
          assertMayAutomate(deps, ctx, a.trigger).then(
            () => true,
            (err: unknown) => {
              if (err instanceof AppError) return false;
              throw err;
            },
          ),
      },
      AutomationRun: {
        automationId: (r: RunView) => r.automation_id,
        eventId: (r: RunView) => r.event_id,
        eventKey: (r: RunView) => r.event_key,
        ruleResult: (r: RunView) => r.rule_result,
        createdAt: (r: RunView) => r.created_at,
        finishedAt: (r: RunView) => r.finished_at,
        durationMs: (r: RunView) => r.duration_ms,
      },
      AutomationRunAction: {
        actionType: (r: RunActionRow) => r.action_type,
        durationMs: (r: RunActionRow) => r.duration_ms,
      },
    },
  };
}
