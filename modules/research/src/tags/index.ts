import type { ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import { highlightFill } from '../colors/colors.ts';
import {
  createTagBoard,
  deleteTagBoard,
  getTagBoard,
  listAllTagBoards,
  listTagBoards,
  updateTagBoard,
} from './boards.ts';
import { createTagGroup, deleteTagGroup, getTagGroup, moveTagGroup, updateTagGroup } from './groups.ts';
import { tagLoaders } from './loaders.ts';
import { mergeTags } from './merge.ts';
import type { TagBoardView, TagGroupView, TagView } from './rows.ts';
import { tagsTypeDefs } from './schema.ts';
import { highlightTags, tagHighlight, untagHighlight } from './taggings.ts';
import { tagNote, tagsOfNote, untagNote } from './note-taggings.ts';
import { createTag, deleteTag, getTag, moveTag, updateTag } from './tags.ts';

type Args = Record<string, unknown>;
type Resolver<P = unknown> = (parent: P, args: Args, ctx: RequestContext) => Promise<unknown> | unknown;

/** Tag boards, groups, tags and tagging: the research module's tags part. */
export function tagsPart(moduleCtx: ModuleContext): ModuleGraphql {
  const Query: Record<string, Resolver> = {
    tagBoards: (_p, args, ctx) => listTagBoards(ctx, args),
    allTagBoards: (_p, _a, ctx) => listAllTagBoards(ctx),
    tagBoard: (_p, args, ctx) => getTagBoard(ctx, args),
    tagGroup: (_p, args, ctx) => getTagGroup(ctx, args),
    tag: (_p, args, ctx) => getTag(ctx, args),
    highlightTags: (_p, args, ctx) => highlightTags(ctx, args),
  };
  const Mutation: Record<string, Resolver> = {
    createTagBoard: (_p, args, ctx) => createTagBoard(ctx, args),
    updateTagBoard: (_p, args, ctx) => updateTagBoard(ctx, args),
    deleteTagBoard: (_p, args, ctx) => deleteTagBoard(ctx, args),
    createTagGroup: (_p, args, ctx) => createTagGroup(ctx, args),
    updateTagGroup: (_p, args, ctx) => updateTagGroup(ctx, args),
    moveTagGroup: (_p, args, ctx) => moveTagGroup(ctx, args),
    deleteTagGroup: (_p, args, ctx) => deleteTagGroup(ctx, args),
    createTag: (_p, args, ctx) => createTag(ctx, args),
    updateTag: (_p, args, ctx) => updateTag(ctx, args),
    moveTag: (_p, args, ctx) => moveTag(ctx, args),
    deleteTag: (_p, args, ctx) => deleteTag(ctx, args),
    mergeTags: (_p, args, ctx) => mergeTags(ctx, args),
    tagHighlight: (_p, args, ctx) => tagHighlight(ctx, moduleCtx.events, args),
    untagHighlight: (_p, args, ctx) => untagHighlight(ctx, args),
    tagNote: (_p, args, ctx) => tagNote(ctx, moduleCtx.events, args),
    untagNote: (_p, args, ctx) => untagNote(ctx, args),
  };
  const TagBoard: Record<string, Resolver<TagBoardView>> = {
    groups: (board, _a, ctx) => tagLoaders(ctx).groupsOfBoard.load(board.id),
    tags: (board, _a, ctx) => tagLoaders(ctx).tagsOfBoard.load(board.id),
    ungroupedTags: async (board, _a, ctx) =>
      (await tagLoaders(ctx).tagsOfBoard.load(board.id)).filter((t) => t.groupId === null),
  };
  const TagGroup: Record<string, Resolver<TagGroupView>> = {
    tags: (group, _a, ctx) => tagLoaders(ctx).tagsOfGroup.load(group.id),
  };
  const Tag: Record<string, Resolver<TagView>> = {
    highlightCount: (tag, _a, ctx) => tagLoaders(ctx).highlightCount.load(tag.id),
    highlightColor: (tag) => highlightFill(tag.color),
  };
  // A note's tags; the note itself was already checked readable when it was loaded.
  const Note: Record<string, Resolver<{ id: string }>> = {
    tags: (note, _a, ctx) => ctx.tx((trx) => tagsOfNote(trx, note.id)),
  };
  return { typeDefs: tagsTypeDefs, resolvers: { Query, Mutation, TagBoard, TagGroup, Tag, Note } };
}
