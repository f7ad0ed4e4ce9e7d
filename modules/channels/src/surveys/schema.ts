/** GraphQL of survey import (001 §3.4: questions, responses, the result and its failures). */
export const surveysTypeDefs = /* GraphQL */ `
  extend type Mutation {
    "Contributor and above: imports survey responses into a channel as a dataset of their own (at most 1000 responses a call)."
    importSurvey(input: ImportSurveyInput!): SurveyImportResult!
  }

  enum SurveyQuestionType { FREE_TEXT MULTI_SELECT SINGLE_SELECT }
  "CONTENT: one data point per free-text answer. SURVEY: one per response, select answers as fields."
  enum SurveyProcessedInto { CONTENT SURVEY }

  input SurveyQuestionOptionInput { id: String!, optionText: String! }
  input SurveyQuestionInput {
    id: String!
    "Up to 2500 characters."
    questionText: String!
    questionType: SurveyQuestionType!
    "Select questions' options (at most 750, each up to 50 characters)."
    questionOptions: [SurveyQuestionOptionInput!]
  }
  input SurveyAnswerInput {
    questionId: String!
    "A free-text answer, up to 20000 characters."
    text: String
    optionIds: [String!]
  }
  input SurveyResponseInput {
    id: String!
    submittedAt: String
    respondentEmail: String
    respondentName: String
    answers: [SurveyAnswerInput!]!
  }
  input ImportSurveyInput {
    channelId: ID!
    name: String
    "Left out: SURVEY when a question is a select, else CONTENT."
    processInto: SurveyProcessedInto
    questions: [SurveyQuestionInput!]!
    responses: [SurveyResponseInput!]!
  }

  type SurveyImportFailure { responseId: String, questionId: String, humanMessageText: String!, errorCode: String! }
  type SurveyImportResult {
    processedInto: SurveyProcessedInto!
    datasetId: ID!
    numCreated: Int!
    numUpdated: Int!
    numFailed: Int!
    failures: [SurveyImportFailure!]!
    "The insight the import was processed into; channel imports make none."
    insightId: ID
  }
`;
