/** The summary frameworks (001 §3.6): how a summary is organised, each with its instruction. */
export const SUMMARY_FRAMEWORKS = [
  'ByQuestion',
  'ByThemes',
  'Chronological',
  'CustomPrompt',
  'CustomerCall',
  'Essential',
  'FeatureRequests',
  'ProductPRD',
  'RecommendedActions',
  'ResearchReport',
  'SalesMEDICC',
  'SalesSPICED',
  'Summary',
  'UsabilityTest',
  'VoiceOfCustomerReport',
] as const;
export type SummaryFramework = (typeof SUMMARY_FRAMEWORKS)[number];

/** Shown first, in this order: chronological, summary, by topics, customer call, usability test, sales SPICED. */
export const DEFAULT_FRAMEWORKS: readonly SummaryFramework[] = [
  'Chronological',
  'Summary',
  'ByThemes',
  'CustomerCall',
  'UsabilityTest',
  'SalesSPICED',
];

export const SUMMARY_KINDS = ['chapter', 'paragraph', 'streaming'] as const;
export type SummaryKind = (typeof SUMMARY_KINDS)[number];

export const FRAMEWORK_INFO: Readonly<Record<SummaryFramework, { label: string; instruction: string }>> = {
  ByQuestion: {
    label: 'By question',
    instruction: 'Organise the summary by the questions asked, each with what was answered.',
  },
  ByThemes: {
    label: 'By topics',
    instruction: 'Organise the summary by the main topics discussed, one part per topic.',
  },
  Chronological: { label: 'Chronological', instruction: 'Summarise in the order things were said.' },
  CustomPrompt: { label: 'Custom prompt', instruction: '' },
  CustomerCall: {
    label: 'Customer call',
    instruction:
      'Summarise as a customer call: who the customer is, their situation, needs, objections and next steps.',
  },
  Essential: { label: 'Essential', instruction: 'Give only the few points that matter most, as briefly as possible.' },
  FeatureRequests: {
    label: 'Feature requests',
    instruction: 'List the features asked for or implied, each with the need behind it.',
  },
  ProductPRD: {
    label: 'Product requirements',
    instruction: 'Write it as product requirements: problem, users, requirements and open questions.',
  },
  RecommendedActions: {
    label: 'Recommended actions',
    instruction: 'Give the actions the team should take, each with the evidence for it.',
  },
  ResearchReport: {
    label: 'Research report',
    instruction: 'Write a short research report: goals, method, findings and implications.',
  },
  SalesMEDICC: {
    label: 'Sales MEDDICC',
    instruction:
      'Organise by MEDDICC: metrics, economic buyer, decision criteria, decision process, identified pain, champion, competition.',
  },
  SalesSPICED: {
    label: 'Sales SPICED',
    instruction: 'Organise by SPICED: situation, pain, impact, critical event, decision.',
  },
  Summary: { label: 'Summary', instruction: 'Write a concise general summary.' },
  UsabilityTest: {
    label: 'Usability test',
    instruction: 'Summarise as a usability test: tasks, where people struggled, what worked, and severity.',
  },
  VoiceOfCustomerReport: {
    label: 'Voice of the customer',
    instruction: 'Report the customer’s own views: needs, pains, praise and requests, in their words where possible.',
  },
};

/** Every framework, the default list first (in its order), then the rest alphabetically. */
export function frameworkOptions(): Array<{ framework: SummaryFramework; label: string; isDefault: boolean }> {
  const rest = SUMMARY_FRAMEWORKS.filter((f) => !DEFAULT_FRAMEWORKS.includes(f));
  return [...DEFAULT_FRAMEWORKS, ...rest].map((f) => ({
    framework: f,
    label: FRAMEWORK_INFO[f].label,
    isDefault: DEFAULT_FRAMEWORKS.includes(f),
  }));
}
