import { describe, expect, it } from 'vitest';
import { failure, ok } from '../research/content-support.ts';
import { useChannelFixture } from './support.ts';

const a = useChannelFixture('Onboarding survey');

const IMPORT = `mutation($input: ImportSurveyInput!) { importSurvey(input: $input) { processedInto datasetId numCreated numUpdated numFailed insightId failures { responseId questionId humanMessageText errorCode } } }`;
type Result = {
  processedInto: string;
  datasetId: string;
  numCreated: number;
  numUpdated: number;
  numFailed: number;
  insightId: string | null;
  failures: Array<{
    responseId: string | null;
    questionId: string | null;
    humanMessageText: string;
    errorCode: string;
  }>;
};

const questions = [
  { id: 'q1', questionText: 'What nearly stopped you from signing up?', questionType: 'FREE_TEXT' },
  {
    id: 'q2',
    questionText: 'Which plan are you on?',
    questionType: 'SINGLE_SELECT',
    questionOptions: [
      { id: 'o1', optionText: 'Team' },
      { id: 'o2', optionText: 'Enterprise' },
    ],
  },
  {
    id: 'q3',
    questionText: 'Which features do you use?',
    questionType: 'MULTI_SELECT',
    questionOptions: [
      { id: 'f1', optionText: 'Search' },
      { id: 'f2', optionText: 'Tags' },
      { id: 'f3', optionText: 'Export' },
    ],
  },
];
const responses = [
  {
    id: 'r1',
    submittedAt: '2026-03-01T10:00:00Z',
    respondentEmail: 'ana@example.com',
    answers: [
      { questionId: 'q1', text: 'The price page was confusing' },
      { questionId: 'q2', optionIds: ['o1'] },
      { questionId: 'q3', optionIds: ['f1', 'f3'] },
    ],
  },
  { id: 'r2', answers: [{ questionId: 'q1', text: 'x'.repeat(20001) }] },
  { id: 'r3', answers: [{ questionId: 'q2', optionIds: ['o1', 'o2'] }] },
  { id: 'r4', answers: [{ questionId: 'q9', text: 'Hello' }] },
  { id: 'r5', answers: [{ questionId: 'q2', optionIds: ['o2'] }] },
];

describe('survey import', () => {
  it('imports one data point per response with select answers as fields, each bad response failing alone', async () => {
    const { importSurvey } = ok(
      await a.contributor.gql<{ importSurvey: Result }>(IMPORT, {
        input: { channelId: a.channelId, name: 'Onboarding 2026', questions, responses },
      }),
    );
    expect(importSurvey).toMatchObject({
      processedInto: 'SURVEY',
      numCreated: 2,
      numUpdated: 0,
      numFailed: 3,
      insightId: null,
    });
    expect(importSurvey.failures).toEqual([
      {
        responseId: 'r2',
        questionId: 'q1',
        errorCode: 'RESPONSE_TOO_LONG',
        humanMessageText: 'A response can be at most 20000 characters long.',
      },
      {
        responseId: 'r3',
        questionId: 'q2',
        errorCode: 'TOO_MANY_CHOICES',
        humanMessageText: '"Which plan are you on?" takes one answer; the response chose 2.',
      },
      {
        responseId: 'r4',
        questionId: 'q9',
        errorCode: 'UNKNOWN_QUESTION',
        humanMessageText: 'The response answers a question the survey does not have (q9).',
      },
    ]);
    const points = (await a.server.fieldbook.db
      .owner('channel_datapoints')
      .where({ dataset_id: importSurvey.datasetId })
      .orderBy('external_id')) as Array<{ external_id: string; content: string; fields: Record<string, string> }>;
    expect(points.map((p) => [p.external_id, p.content])).toEqual([
      ['r1', 'The price page was confusing'],
      ['r5', 'Which plan are you on?: Enterprise'],
    ]);
    const fields = (await a.server.fieldbook.db
      .owner('channel_fields')
      .where({ channel_id: a.channelId })
      .orderBy('label')) as Array<{ id: string; label: string; type: string; options: Array<{ label: string }> }>;
    expect(fields.map((f) => [f.label, f.type, f.options.map((o) => o.label)])).toEqual([
      ['Which features do you use?', 'SELECT', ['Search', 'Export']],
      ['Which plan are you on?', 'SELECT', ['Team', 'Enterprise']],
    ]);
  });

  it('processes free-text answers into content, one data point each', async () => {
    const { importSurvey } = ok(
      await a.contributor.gql<{ importSurvey: Result }>(IMPORT, {
        input: {
          channelId: a.channelId,
          processInto: 'CONTENT',
          questions: [questions[0], { id: 'q4', questionText: 'Anything else?', questionType: 'FREE_TEXT' }],
          responses: [
            {
              id: 'c1',
              answers: [
                { questionId: 'q1', text: 'Pricing' },
                { questionId: 'q4', text: 'More integrations' },
              ],
            },
            { id: 'c2', answers: [] },
          ],
        },
      }),
    );
    expect(importSurvey).toMatchObject({
      processedInto: 'CONTENT',
      numCreated: 2,
      numFailed: 1,
      failures: [{ responseId: 'c2', errorCode: 'NO_FREE_TEXT' }],
    });
  });

  it("refuses questions past the limits, 'Too many options.' among them, and viewers", async () => {
    const tooMany = failure(
      await a.contributor.gql(IMPORT, {
        input: {
          channelId: a.channelId,
          questions: [
            {
              id: 'q',
              questionText: 'Pick',
              questionType: 'MULTI_SELECT',
              questionOptions: Array.from({ length: 751 }, (_, i) => ({ id: `o${i}`, optionText: `Option ${i}` })),
            },
          ],
          responses: [],
        },
      }),
    );
    expect(tooMany).toMatchObject({
      message: 'input.questions.0.questionOptions: Too many options.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'input.questions.0.questionOptions' },
    });
    const long = failure(
      await a.contributor.gql(IMPORT, {
        input: {
          channelId: a.channelId,
          questions: [{ id: 'q', questionText: 'y'.repeat(2501), questionType: 'FREE_TEXT' }],
          responses: [],
        },
      }),
    );
    expect(long.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.questions.0.questionText' });
    expect(long.message).toContain('at most 2500 characters');
    const viewer = failure(
      await a.viewer.gql(IMPORT, { input: { channelId: a.channelId, questions: [questions[0]], responses: [] } }),
    );
    expect(viewer.extensions?.errorCode).toBe('FORBIDDEN');
  });
});
