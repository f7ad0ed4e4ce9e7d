export {
  createAiService,
  HIGHLIGHTS_OFF,
  type AiService,
  type AiCallScope,
  type AiModelInfo,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type ChatTool,
  type ToolCall,
} from './provider.ts';
export {
  isVerbatimQuote,
  normalizeForQuote,
  quoteKey,
  verifyQuotes,
  type QuoteCandidate,
  type VerifiedQuotes,
} from './quotes.ts';
export {
  findQuotations,
  QuoteCheckedStream,
  UNVERIFIED_QUOTE,
  verifyProse,
  type ProseQuotation,
  type ProseSource,
  type VerifiedProse,
} from './prose-quotes.ts';
export { keySentences, sentences, sentencesMatching, wordCount, words } from './extractive.ts';
export { authorizeSummary, VIEWERS_CANNOT_SUMMARIZE } from './summarizers.ts';
export {
  AI_FEATURES,
  AI_MODES,
  AI_MODE_STEPS,
  DEFAULT_AI_MODES,
  DEFAULT_AI_SETTINGS,
  readAiSettings,
  writeAiSettings,
  type AiFeature,
  type AiMode,
  type AiModeStep,
  type AiSettings,
} from './settings.ts';
export { readUsage, monthOf, type MonthlyUsage } from './usage.ts';
export type { AgentTool, AgentToolSource, ToolInputSchema, ToolItem, ToolJson, ToolResult } from './tools.ts';
export {
  provenanceLabel,
  readProvenance,
  readProvenances,
  recordProvenance,
  type Provenance,
  type ProvenanceMaker,
} from './provenance.ts';
