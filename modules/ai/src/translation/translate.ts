import { z } from 'zod';
import {
  AppError,
  recordAudit,
  recordProvenance,
  validate,
  type AiService,
  type ModuleGraphql,
  type RequestContext,
} from '@fieldbook/core';
import { callerOf, itemFor } from '../access.ts';

export const TRANSLATION_PROMPT_VERSION = 'translate-v1';
/** Languages translation is offered in (ISO 639-1); any pair of two different ones is supported. */
export const TRANSLATION_LANGUAGES = [
  'ar',
  'da',
  'de',
  'en',
  'es',
  'fi',
  'fr',
  'hi',
  'it',
  'ja',
  'ko',
  'nl',
  'no',
  'pl',
  'pt',
  'sv',
  'tr',
  'uk',
  'zh',
] as const;
const MAX_CHARS = 60_000;

const input = z.object({
  noteId: z.string().uuid('noteId must be a valid id.'),
  richTextId: z.string().uuid('richTextId must be a valid id.').nullish(),
  targetLanguage: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{2}$/, 'targetLanguage must be a two-letter language code, e.g. de.'),
  sourceLanguage: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{2}$/, 'sourceLanguage must be a two-letter language code, e.g. en.')
    .nullish(),
});

export interface TranslationResult {
  noteId: string;
  richTextId: string;
  targetLanguage: string;
  sourceLanguage: string | null;
  status: 'Success' | 'Failure';
  error: 'UnsupportedLanguagePair' | 'Error' | null;
  /** The translated copy, a new note beside the original. */
  translatedNoteId: string | null;
}

const supported = (l: string) => (TRANSLATION_LANGUAGES as readonly string[]).includes(l);
const doc = (text: string) => ({
  type: 'doc',
  content: text
    .split(/\n+/)
    .filter((p) => p.trim())
    .map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })),
});

/**
 * Translates a note into a new note of the same project (the original is never changed), and
 * records it in the audit log (source and target note and language) with its provenance.
 */
export async function translateNote(ctx: RequestContext, ai: AiService, raw: unknown): Promise<TranslationResult> {
  const caller = callerOf(ctx, 'notes:create');
  const i = validate(input, raw);
  if (i.richTextId && i.richTextId !== i.noteId)
    throw new AppError('BAD_USER_INPUT', 'richTextId must be the note’s own text (its noteId).', {
      field: 'richTextId',
    });
  const note = await ctx.tx((trx) => itemFor(trx, caller, 'notes', i.noteId, 'write'));
  const base = {
    noteId: i.noteId,
    richTextId: i.noteId,
    targetLanguage: i.targetLanguage,
    sourceLanguage: i.sourceLanguage ?? null,
  };
  if (
    !supported(i.targetLanguage) ||
    (i.sourceLanguage && (!supported(i.sourceLanguage) || i.sourceLanguage === i.targetLanguage))
  ) {
    return { ...base, status: 'Failure', error: 'UnsupportedLanguagePair', translatedNoteId: null };
  }
  if (!ai.model)
    throw new AppError(
      'INVALID_OPERATION',
      'Translation needs an AI model. Set OPENAI_BASE_URL (and OPENAI_API_KEY, OPENAI_CHAT_MODEL) to use it.',
    );
  const settings = await ai.settings(caller.workspaceId);
  if (!settings.features.translation)
    throw new AppError(
      'FORBIDDEN',
      'AI translation is turned off in this workspace. A workspace admin can turn it on in Settings → AI.',
    );
  if (note.content_text.length > MAX_CHARS)
    throw new AppError(
      'BAD_USER_INPUT',
      `A note to translate can be at most ${MAX_CHARS.toLocaleString('en-US')} characters.`,
      { field: 'noteId' },
    );
  let result;
  try {
    result = await ai.chat(
      { workspaceId: caller.workspaceId, userId: caller.userId, feature: 'translation' },
      {
        messages: [
          {
            role: 'system',
            content: `Translate the note ${i.sourceLanguage ? `from ${i.sourceLanguage} ` : ''}into ${i.targetLanguage}. The first line is its title. Keep paragraphs; answer with the translation only.`,
          },
          { role: 'user', content: `${note.title}\n${note.content_text}` },
        ],
        temperature: 0,
      },
    );
  } catch (err) {
    // The cap and switched-off features are the workspace's choice: say so rather than "Error".
    if (err instanceof AppError && (err.errorCode === 'TOO_MANY_REQUESTS' || err.errorCode === 'FORBIDDEN')) throw err;
    return { ...base, status: 'Failure', error: 'Error', translatedNoteId: null };
  }
  const [title = '', ...body] = result.text.trim().split('\n');
  if (!title.trim()) return { ...base, status: 'Failure', error: 'Error', translatedNoteId: null };
  const text = body.join('\n').trim();
  const translatedNoteId = await ctx.tx(async (trx) => {
    const [row] = (await trx('notes')
      .insert({
        workspace_id: caller.workspaceId,
        project_id: note.project_id,
        title: `${title.trim()} (${i.targetLanguage})`.slice(0, 200),
        content: JSON.stringify(doc(text)),
        content_text: text,
        created_by: caller.userId,
        updated_by: caller.userId,
      })
      .returning('id')) as Array<{ id: string }>;
    await recordAudit(trx, {
      workspaceId: caller.workspaceId,
      actorUserId: caller.userId,
      kind: 'TRANSLATION',
      subjectType: 'NOTE',
      subjectId: note.id,
      metadata: {
        sourceObjectId: note.id,
        targetObjectId: row!.id,
        sourceLanguage: i.sourceLanguage ?? null,
        targetLanguage: i.targetLanguage,
      },
    });
    await recordProvenance(trx, caller.workspaceId, {
      objectType: 'NOTE',
      objectId: row!.id,
      model: result.model,
      endpointHost: result.endpointHost,
      promptVersion: TRANSLATION_PROMPT_VERSION,
      inputIds: [note.id],
      inputTypes: { note: 1 },
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
      createdBy: caller.userId,
    });
    return row!.id;
  });
  return { ...base, status: 'Success', error: null, translatedNoteId };
}

export function translationPart(ai: AiService): ModuleGraphql {
  return {
    typeDefs: /* GraphQL */ `
      extend type Mutation {
        "Translates a note into a new note beside it (the original is kept), recorded in the audit log."
        translateNote(input: TranslateNoteInput!): Translation!
      }
      input TranslateNoteInput {
        noteId: ID!
        "The note's text; only the note's own id."
        richTextId: ID
        "Two-letter code (ISO 639-1), e.g. de."
        targetLanguage: String!
        sourceLanguage: String
      }
      enum TranslationStatus {
        Success
        Failure
      }
      enum TranslationError {
        UnsupportedLanguagePair
        Error
      }
      type Translation {
        noteId: ID!
        richTextId: ID!
        targetLanguage: String!
        sourceLanguage: String
        status: TranslationStatus!
        error: TranslationError
        translatedNoteId: ID
      }
    `,
    resolvers: {
      Mutation: {
        translateNote: (_: unknown, args: { input: unknown }, ctx: RequestContext) =>
          translateNote(ctx, ai, args.input),
      },
    },
  };
}
