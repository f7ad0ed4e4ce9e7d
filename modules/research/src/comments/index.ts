import type { ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import {
  canDelete,
  canEdit,
  createComment,
  deleteComment,
  listComments,
  objectTypeOf,
  updateComment,
  type CommentView,
} from './comments.ts';
import { plainBody } from './mentions.ts';
import { commentsTypeDefs } from './schema.ts';
import { getNotificationSettings, updateNotificationSettings } from './settings.ts';
import { userName } from './users.ts';

export { commentCreatedSubscriber } from './created.ts';

type Args = Record<string, unknown>;
type Resolver<P = unknown> = (parent: P, args: Args, ctx: RequestContext) => Promise<unknown> | unknown;

/** Comments on notes and insights, with their notifications: the research module's comments part. */
export function commentsPart(moduleCtx: ModuleContext): ModuleGraphql {
  const Query: Record<string, Resolver> = {
    comments: (_p, args, ctx) => listComments(ctx, args),
    notificationSettings: (_p, _a, ctx) => getNotificationSettings(ctx),
  };
  const Mutation: Record<string, Resolver> = {
    createComment: (_p, args, ctx) => createComment(ctx, moduleCtx.events, args),
    updateComment: (_p, args, ctx) => updateComment(ctx, moduleCtx.jobs, args),
    deleteComment: (_p, args, ctx) => deleteComment(ctx, args),
    updateNotificationSettings: (_p, args, ctx) => updateNotificationSettings(ctx, args),
  };
  const Comment: Record<string, Resolver<CommentView>> = {
    objectType: (c) => objectTypeOf(c),
    objectId: (c) => c.note_id ?? c.insight_id,
    projectId: (c) => c.project_id,
    text: (c) => plainBody(c.body),
    mentions: async (c, _a, ctx) => {
      const names = await Promise.all(c.mentioned_user_ids.map((id) => userName(ctx, id)));
      return c.mentioned_user_ids.map((userId, i) => ({ userId, name: names[i] ?? 'Unknown user' }));
    },
    authorId: (c) => c.created_by,
    authorName: (c, _a, ctx) => (c.created_by ? userName(ctx, c.created_by) : 'Deleted user'),
    canEdit: (c) => canEdit(c),
    canDelete: (c) => canDelete(c),
    createdAt: (c) => c.created_at,
    updatedAt: (c) => c.updated_at,
    editedAt: (c) => c.edited_at,
  };
  return { typeDefs: commentsTypeDefs, resolvers: { Query, Mutation, Comment } };
}
