import type Router from '@koa/router';
import type { JobDefinition, ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import { exportJob } from './export-job.ts';
import { importJob } from './import-job.ts';
import { mountTransferRoutes } from './routes.ts';
import { transfersTypeDefs } from './schema.ts';
import {
  exportProject,
  getTransfer,
  idMappings,
  importProject,
  listTransfers,
  type TransferView,
} from './transfers.ts';
import type { TransferJob } from './records.ts';

type Args = Record<string, unknown>;
type Resolver<P = unknown> = (parent: P, args: Args, ctx: RequestContext) => Promise<unknown> | unknown;

/** Project exports and imports: the research module's transfers part. */
export function transfersPart(moduleCtx: ModuleContext): ModuleGraphql {
  const Query: Record<string, Resolver> = {
    projectTransfer: (_p, args, ctx) => getTransfer(ctx, args),
    projectTransfers: (_p, args, ctx) => listTransfers(ctx, args),
  };
  const Mutation: Record<string, Resolver> = {
    exportProject: (_p, args, ctx) => exportProject(ctx, moduleCtx.jobs, args),
    importProject: (_p, args, ctx) => importProject(ctx, moduleCtx, args),
  };
  const ProjectTransfer: Record<string, Resolver<TransferView>> = {
    projectId: (t) => t.project_id,
    projectTitle: (t) => t.title,
    fileSize: (t) => (t.file_size == null ? null : Number(t.file_size)),
    downloadUrl: (t) => (t.kind === 'EXPORT' && t.status === 'COMPLETED' ? `/api/exports/${t.id}` : null),
    sourceExportId: (t) => t.source_transfer_id,
    createdById: (t) => t.created_by,
    createdAt: (t) => t.created_at,
    updatedAt: (t) => t.updated_at,
    completedAt: (t) => t.completed_at,
    idMappings: (t, args, ctx) => idMappings(ctx, t, args),
  };
  return { typeDefs: transfersTypeDefs, resolvers: { Query, Mutation, ProjectTransfer } };
}

export function transferJobs(ctx: ModuleContext): Array<JobDefinition<TransferJob>> {
  return [exportJob(ctx), importJob(ctx)];
}

export function transferRoutes(router: Router, ctx: ModuleContext): void {
  mountTransferRoutes(router, { dataDir: ctx.config.dataDir, jobs: ctx.jobs, context: ctx.requestContext });
}
