import { z } from 'zod';
import { AppError, validate, type EventBus, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { channelFor, idSchema } from '../channels/channels.ts';
import { createDataset } from '../datasets/datasets.ts';
import { writeRecords } from '../datapoints/write.ts';
import { CHANNEL_LIMITS } from '../limits.ts';
import type { ImportedRecord } from '../sources/contract.ts';

/** Survey and content import (001 §3.4). */
export const SURVEY_LIMITS = {
  questionText: 2500,
  response: CHANNEL_LIMITS.content,
  options: CHANNEL_LIMITS.selectOptions,
  optionText: CHANNEL_LIMITS.optionLabel,
  questions: 200,
  responses: 1000,
} as const;

export const QUESTION_TYPES = ['FREE_TEXT', 'MULTI_SELECT', 'SINGLE_SELECT'] as const;
export type ProcessedInto = 'CONTENT' | 'SURVEY';

const id = (what: string) =>
  z.string().trim().min(1, `${what} cannot be empty.`).max(200, `${what} can be at most 200 characters long.`);

const surveySchema = z.object({
  input: z.object({
    channelId: idSchema('channelId'),
    name: z.string().trim().max(300, 'A dataset name can be at most 300 characters long.').nullish(),
    processInto: z.enum(['CONTENT', 'SURVEY']).nullish(),
    questions: z
      .array(
        z.object({
          id: id('A question id'),
          questionText: z
            .string()
            .trim()
            .min(1, 'A question needs its text.')
            .max(
              SURVEY_LIMITS.questionText,
              `A survey question can be at most ${SURVEY_LIMITS.questionText} characters long.`,
            ),
          questionType: z.enum(QUESTION_TYPES),
          // Counted before each option is checked, so a huge list is refused at once.
          questionOptions: z
            .array(z.unknown())
            .max(SURVEY_LIMITS.options, 'Too many options.')
            .pipe(
              z.array(
                z.object({
                  id: id('An option id'),
                  optionText: z
                    .string()
                    .trim()
                    .min(1, 'An option needs its text.')
                    .max(
                      SURVEY_LIMITS.optionText,
                      `An option can be at most ${SURVEY_LIMITS.optionText} characters long.`,
                    ),
                }),
              ),
            )
            .nullish(),
        }),
      )
      .min(1, 'A survey needs at least one question.')
      .max(SURVEY_LIMITS.questions, `A survey can have at most ${SURVEY_LIMITS.questions} questions.`),
    responses: z
      .array(
        z.object({
          id: id('A response id'),
          submittedAt: z.string().nullish(),
          respondentEmail: z.string().max(CHANNEL_LIMITS.email).nullish(),
          respondentName: z.string().max(200).nullish(),
          answers: z
            .array(
              z.object({
                questionId: z.string().max(200),
                text: z.string().nullish(),
                optionIds: z.array(z.string().max(200)).max(SURVEY_LIMITS.options).nullish(),
              }),
            )
            .max(SURVEY_LIMITS.questions),
        }),
      )
      .max(SURVEY_LIMITS.responses, `One import can hold at most ${SURVEY_LIMITS.responses} responses.`),
  }),
});

export interface SurveyFailure {
  responseId: string | null;
  questionId: string | null;
  humanMessageText: string;
  errorCode: string;
}

export interface SurveyImportResult {
  processedInto: ProcessedInto;
  datasetId: string;
  numCreated: number;
  numUpdated: number;
  numFailed: number;
  failures: SurveyFailure[];
  /** An insight the import was processed into; channel imports make none. */
  insightId: string | null;
}

/** A select question's field label: its text, cut to what a field label holds. */
const labelOf = (text: string) => [...text].slice(0, CHANNEL_LIMITS.fieldLabel).join('');

/**
 * Imports survey responses into a channel as a dataset of its own. SURVEY: one data point per
 * response, its free-text answers as the text and each select question a SELECT field. CONTENT:
 * one data point per free-text answer, the response's select answers as its fields. Each response
 * (or answer) fails alone, with a message for people and a code.
 */
export async function importSurvey(
  ctx: RequestContext,
  events: EventBus,
  maximumDataPoints: number | null,
  args: unknown,
): Promise<SurveyImportResult> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.import);
  const { input } = validate(surveySchema, args);
  const questions = new Map(input.questions.map((q) => [q.id, q]));
  if (questions.size !== input.questions.length)
    throw new AppError('BAD_USER_INPUT', 'Two questions have the same id.', { field: 'input.questions' });
  for (const [i, q] of input.questions.entries()) {
    if (q.questionType !== 'FREE_TEXT' && !q.questionOptions?.length)
      throw new AppError('BAD_USER_INPUT', `The question "${labelOf(q.questionText)}" needs its options.`, {
        field: `input.questions.${i}.questionOptions`,
      });
  }
  const processedInto: ProcessedInto =
    input.processInto ?? (input.questions.some((q) => q.questionType !== 'FREE_TEXT') ? 'SURVEY' : 'CONTENT');
  const failures: SurveyFailure[] = [];
  const fail = (responseId: string | null, questionId: string | null, errorCode: string, humanMessageText: string) =>
    failures.push({ responseId, questionId, errorCode, humanMessageText });
  const records: ImportedRecord[] = [];
  const owners: Array<{ responseId: string; questionId: string | null }> = [];
  const fieldTypes: Record<string, string> = {};
  for (const q of input.questions) if (q.questionType !== 'FREE_TEXT') fieldTypes[labelOf(q.questionText)] = 'SELECT';
  const now = new Date().toISOString();

  responses: for (const r of input.responses) {
    const texts: Array<{ questionId: string; text: string }> = [];
    const fields: Record<string, string> = {};
    for (const a of r.answers) {
      const q = questions.get(a.questionId);
      if (!q) {
        fail(
          r.id,
          a.questionId,
          'UNKNOWN_QUESTION',
          `The response answers a question the survey does not have (${a.questionId}).`,
        );
        continue responses;
      }
      if (q.questionType === 'FREE_TEXT') {
        const text = (a.text ?? '').trim();
        if ([...text].length > SURVEY_LIMITS.response) {
          fail(r.id, q.id, 'RESPONSE_TOO_LONG', `A response can be at most ${SURVEY_LIMITS.response} characters long.`);
          continue responses;
        }
        if (text) texts.push({ questionId: q.id, text });
        continue;
      }
      const chosen = (a.optionIds ?? []).map((oid) => q.questionOptions!.find((o) => o.id === oid));
      if (chosen.some((o) => !o)) {
        fail(
          r.id,
          q.id,
          'UNKNOWN_OPTION',
          `The response chose an option the question "${labelOf(q.questionText)}" does not have.`,
        );
        continue responses;
      }
      if (q.questionType === 'SINGLE_SELECT' && chosen.length > 1) {
        fail(
          r.id,
          q.id,
          'TOO_MANY_CHOICES',
          `"${labelOf(q.questionText)}" takes one answer; the response chose ${chosen.length}.`,
        );
        continue responses;
      }
      // Semicolons separate a SELECT field's values, so an option's own are replaced.
      if (chosen.length)
        fields[labelOf(q.questionText)] = chosen.map((o) => o!.optionText.replaceAll(';', ',')).join('; ');
    }
    const createdAt =
      r.submittedAt && !Number.isNaN(Date.parse(r.submittedAt)) ? new Date(r.submittedAt).toISOString() : now;
    const person = r.respondentEmail ? { email: r.respondentEmail, name: r.respondentName ?? null } : null;
    if (processedInto === 'SURVEY') {
      const content =
        texts.length === 1
          ? texts[0]!.text
          : texts.map((t) => `${questions.get(t.questionId)!.questionText}\n${t.text}`).join('\n\n');
      const answered =
        content ||
        Object.entries(fields)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n');
      if (!answered) {
        fail(r.id, null, 'EMPTY_RESPONSE', 'The response answers no question.');
        continue;
      }
      records.push({
        externalId: r.id,
        content: [...answered].slice(0, SURVEY_LIMITS.response).join(''),
        createdAt,
        person,
        fields,
      });
      owners.push({ responseId: r.id, questionId: null });
    } else {
      if (!texts.length) {
        fail(r.id, null, 'NO_FREE_TEXT', 'The response has no free-text answer to import as content.');
        continue;
      }
      for (const t of texts) {
        records.push({ externalId: `${r.id}:${t.questionId}`, content: t.text, createdAt, person, fields });
        owners.push({ responseId: r.id, questionId: t.questionId });
      }
    }
  }

  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, input.channelId);
    const dataset = await createDataset(trx, events, {
      workspaceId: caller.workspaceId,
      channelId: input.channelId,
      userId: caller.userId,
      source: 'API',
      name: input.name || 'Survey',
      settings: {
        survey: true,
        processedInto,
        questions: input.questions.map((q) => ({
          id: q.id,
          questionType: q.questionType,
          questionText: labelOf(q.questionText),
        })),
      },
    });
    const outcomes = await writeRecords(
      trx,
      {
        workspaceId: caller.workspaceId,
        channelId: input.channelId,
        datasetId: dataset.id,
        source: 'API',
        userId: caller.userId,
        fieldTypes,
        maximumDataPoints,
      },
      records,
    );
    outcomes.forEach((o, i) => {
      if (o.status === 'failed') fail(owners[i]!.responseId, owners[i]!.questionId, 'INVALID_RESPONSE', o.reason);
    });
    return {
      processedInto,
      datasetId: dataset.id,
      numCreated: outcomes.filter((o) => o.status === 'created').length,
      numUpdated: outcomes.filter((o) => o.status === 'updated').length,
      numFailed: failures.length,
      failures: failures.slice(0, CHANNEL_LIMITS.keptFailures),
      insightId: null,
    };
  });
}
