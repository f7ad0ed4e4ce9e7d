import type { z } from 'zod';
import type {
  AgentToolDeclaration,
  AgentToolAnswer,
  AutomationAction,
  InboundWebhook,
  InstallationContext,
  InstallationWebhook,
  WebhookAnswer,
  PluginDefinition,
  PluginJob,
  PluginResolver,
  PluginServer,
  WebhookEvent,
  WebhookNotes,
  WebhookNotesMade,
  WebhookRequest,
  WebhookVerdict,
} from '@fieldbook/extensions-sdk/server';
import type {
  ConfigDeclaration,
  ImportSourceContribution,
  PluginManifest,
  PluginSourceKind,
  SettingsDeclaration,
  SourceField,
  SourcePage,
} from '@fieldbook/extensions-sdk/server';
import type { PluginDescription } from './codec.ts';
import type { HostContext } from './host-calls.ts';
import type { PluginIsolate } from './isolate.ts';
import { SandboxLimitError } from './limits.ts';

type Ctx = InstallationContext<string>;

/** What an action's parameters answer from inside: zod's result, reduced to what crosses. */
type ParseAnswer =
  | { success: true; data: unknown }
  | { success: false; issues: Array<{ message: string; path: string[] }> };

/** The action's parameters (a tool's input, a source's settings) as the host checks them: zod's `safeParse`, run inside the isolate. */
function parametersIn(sandbox: PluginIsolate, index: number, path = `action.${index}.parameters`): z.ZodType {
  const safeParse = (value: unknown) => {
    const answer = sandbox.invokeSync(path, [value], null) as ParseAnswer;
    return answer.success ? answer : { success: false, error: { issues: answer.issues } };
  };
  return { safeParse } as unknown as z.ZodType;
}

/** One part of a delivery's intake as it comes out of the isolate (see `intakeOf` inside). */
type Part = { ok: unknown } | { error: string };
interface Intake {
  verdict: Part;
  answer?: Part;
  eventId?: Part;
  externalId?: Part;
}

const valueOf = (p: Part | undefined): unknown => {
  if (!p) throw new Error('The plugin gave no answer for this delivery.');
  if ('error' in p) throw new Error(p.error);
  return p.ok;
};

/** Bodies up to this size have their intake tried on the server's thread (see `intakeCalls`). */
const AT_ONCE_BODY_BYTES = 64 * 1024;
/** CPU an intake on the server's thread may take: signature checks take well under a millisecond. */
const AT_ONCE_CPU_MS = 50;

/**
 * A webhook's functions over one call per delivery, in the plugin's intake isolate: `verify` runs
 * the whole intake inside (verify, then respond and the ids when verified) and keeps the rest for
 * this request object, which the host passes to each in turn; called alone, each still makes its
 * own call. The call is made on the server's thread while the verifier answers at once, which
 * spares two crossings between threads per delivery (measured: 650 → 200 µs of CPU a Slack
 * delivery, hashes in the isolate included). A verifier that answers with a promise, or takes
 * more than AT_ONCE_CPU_MS, is called on the isolate's own thread from then on, as is a large body.
 */
function intakeCalls(sandbox: PluginIsolate, prefix: string) {
  const kept = new WeakMap<WebhookRequest, Intake>();
  let atOnce = true;
  const tryAtOnce = (isolate: PluginIsolate, request: WebhookRequest, ctx: HostContext): Intake | null => {
    if (!atOnce || request.rawBody.byteLength > AT_ONCE_BODY_BYTES) return null;
    try {
      const quick = isolate.invokeSync(`${prefix}.intakeSync`, [request], ctx, 1, AT_ONCE_CPU_MS) as
        | Intake
        | { async: true };
      if (!('async' in quick)) return quick;
    } catch (err) {
      if (!(err instanceof SandboxLimitError && err.limit === 'cpu')) throw err;
    }
    atOnce = false;
    return null;
  };
  return {
    verify: async (request: WebhookRequest, ctx: HostContext): Promise<WebhookVerdict> => {
      const isolate = sandbox.forIntake();
      const intake =
        tryAtOnce(isolate, request, ctx) ?? ((await isolate.invoke(`${prefix}.intake`, [request], ctx, 1)) as Intake);
      kept.set(request, intake);
      return valueOf(intake.verdict) as WebhookVerdict;
    },
    respond: async (request: WebhookRequest, ctx: HostContext): Promise<WebhookAnswer | null | undefined> => {
      const intake = kept.get(request);
      return (
        intake?.answer
          ? valueOf(intake.answer)
          : await sandbox.forIntake().invoke(`${prefix}.respond`, [request], ctx, 1)
      ) as WebhookAnswer | null | undefined;
    },
    eventId: (request: WebhookRequest): unknown => {
      const intake = kept.get(request);
      return intake?.eventId
        ? valueOf(intake.eventId)
        : sandbox.forIntake().invokeSync(`${prefix}.eventId`, [request], null);
    },
    externalId: (request: WebhookRequest): unknown => {
      const intake = kept.get(request);
      return intake?.externalId
        ? valueOf(intake.externalId)
        : sandbox.forIntake().invokeSync(`${prefix}.externalId`, [request], null);
    },
  };
}

/**
 * The plugin's definition as the rest of the host uses it: the same shape as a trusted plugin's,
 * each function a call into the isolate. Manifest, settings and config are data the host validates
 * again; none of the plugin's code runs in the server process.
 */
export function sandboxedDefinition(sandbox: PluginIsolate, d: PluginDescription): PluginDefinition {
  const webhooks = d.webhooks.map((hook, i): InboundWebhook<Ctx> => {
    // Verification and answers may be async (a plugin may look something up first): awaited calls.
    const calls = intakeCalls(sandbox, `webhook.${i}`);
    return {
      path: String(hook.path) as `/${string}`,
      verify: (request, ctx) => calls.verify(request, ctx as HostContext),
      respond: hook.respond ? (request, ctx) => calls.respond(request, ctx as HostContext) : undefined,
      eventId: (request) => String(calls.eventId(request)),
      externalId: (request) => {
        const id = calls.externalId(request);
        return id === null || id === undefined ? null : String(id);
      },
      handle: async (ctx, event) => {
        await sandbox.invoke(`webhook.${i}.handle`, [event], ctx, 0);
      },
      // A batch of events crosses into the isolate once, and its notes come back in one answer.
      ...(hook.notes
        ? {
            notesFor: async (ctx: Ctx, events: WebhookEvent[]) =>
              (await sandbox.invoke(`webhook.${i}.notesFor`, [events], ctx, 0)) as Array<WebhookNotes | null>,
            notesMade: async (ctx: Ctx, made: WebhookNotesMade[]) => {
              await sandbox.invoke(`webhook.${i}.notesMade`, [made], ctx, 0);
            },
          }
        : {}),
    };
  });
  const hook = d.installationWebhook;
  const installationCalls = intakeCalls(sandbox, 'installationWebhook');
  const installationWebhook: InstallationWebhook<Ctx> | undefined = hook
    ? {
        verify: (request, ctx) => installationCalls.verify(request, ctx),
        respond: hook.respond ? (request, ctx) => installationCalls.respond(request, ctx) : undefined,
        eventId: (request) => String(installationCalls.eventId(request) ?? ''),
        handle: async (ctx, event) => {
          await sandbox.invoke('installationWebhook.handle', [event], ctx, 0);
        },
      }
    : undefined;
  const jobs = Object.fromEntries(
    d.jobs.map(({ name, retryLimit }): [string, PluginJob<Ctx>] => [
      name,
      {
        retryLimit,
        handler: async (ctx, data) => {
          await sandbox.invoke(`job.${name}.handler`, [data], ctx, 0);
        },
      },
    ]),
  );
  const actions = d.actions.map(
    (action, i): AutomationAction<Ctx> => ({
      ...action,
      parameters: parametersIn(sandbox, i),
      execute: async (ctx, params, trigger) =>
        (await sandbox.invoke(`action.${i}.execute`, [params, trigger], ctx, 0)) as { summary?: string } | void,
    }),
  );
  const tools = (d.tools ?? []).map((tool, i): AgentToolDeclaration<Ctx> & { inputSchema: unknown } => ({
    ...tool,
    input: parametersIn(sandbox, i, `tool.${i}.input`),
    execute: async (ctx, input, invocation) =>
      (await sandbox.invoke(`tool.${i}.execute`, [input, invocation], ctx, 0)) as AgentToolAnswer | string,
  }));
  const resolvers = (kind: 'query' | 'mutation', names: readonly string[]) =>
    Object.fromEntries(
      names.map((name): [string, PluginResolver<Ctx>] => [
        name,
        (args, ctx) => sandbox.invoke(`${kind}.${name}`, [args], ctx as HostContext, 1),
      ]),
    );
  const importSources = (d.importSources ?? []).map(
    (source, i): ImportSourceContribution<Ctx> => ({
      kind: source.kind as PluginSourceKind,
      label: String(source.label),
      description: source.description === undefined ? undefined : String(source.description),
      fields: (Array.isArray(source.fields) ? source.fields : []) as SourceField[],
      fieldTypes: (source.fieldTypes ?? undefined) as ImportSourceContribution<Ctx>['fieldTypes'],
      settings: parametersIn(sandbox, i, `importSource.${i}.settings`),
      list: async (ctx, input) => (await sandbox.invoke(`importSource.${i}.list`, [input], ctx, 0)) as SourcePage,
    }),
  );
  const server: PluginServer<Ctx> = {
    importSources,
    webhooks,
    installationWebhook,
    jobs,
    actions,
    tools,
    oauth: d.oauth
      ? {
          level: d.oauth.level,
          authorizeUrl: (params, ctx) => String(sandbox.invokeSync('oauth.authorizeUrl', [params], ctx, 1)),
          exchange: async (params, ctx) =>
            (await sandbox.invoke('oauth.exchange', [params], ctx, 1)) as Awaited<
              ReturnType<NonNullable<PluginServer<Ctx>['oauth']>['exchange']>
            >,
        }
      : undefined,
    graphql: d.graphql
      ? {
          typeDefs: d.graphql.typeDefs,
          query: resolvers('query', d.graphql.query),
          mutation: resolvers('mutation', d.graphql.mutation),
        }
      : undefined,
    setup: d.setup
      ? async (ctx) => {
          await sandbox.invoke('setup', [], ctx, 0);
        }
      : undefined,
  };
  return {
    manifest: d.manifest as PluginManifest,
    settings: (d.settings ?? {}) as SettingsDeclaration,
    config: (d.config ?? {}) as ConfigDeclaration,
    server,
  };
}
