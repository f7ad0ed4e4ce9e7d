/**
 * Suggested questions for Ask, chosen by the asker's job function (000 §3): 27 general, 15 for
 * marketing and sales, 7 for support and customer success, 17 for finance, operations and legal;
 * every other function gets the general list. The product's own texts are not published, so
 * these are Fieldbook's.
 */
const GENERAL = [
  'What are the most common pain points customers mention?',
  'What do customers like most about the product?',
  'Which problems come up in the most interviews?',
  'What did we learn in the last month of research?',
  'What are customers trying to get done when they use us?',
  'Where do new customers get stuck during onboarding?',
  'What features do customers ask for most often?',
  'What do customers say about pricing?',
  'Why do customers choose us over alternatives?',
  'Why do customers leave or stop using the product?',
  'Which competitors do customers mention, and why?',
  'What workarounds are customers using today?',
  'What surprised us in recent interviews?',
  'What do customers say about performance and reliability?',
  'How do customers describe the product in their own words?',
  'What do power users do differently from everyone else?',
  'Which insights have the most supporting highlights?',
  'What questions are still open in our research?',
  'What do customers say about our integrations?',
  'What do customers expect from our mobile experience?',
  'What do customers say about collaboration with their team?',
  'Which customer segments have different needs?',
  'What frustrates customers about reporting and exports?',
  'What do customers say about security and privacy?',
  'What would make customers recommend us to a colleague?',
  'What do customers say about our documentation and help?',
  'What should the product team prioritise next, based on the research?',
];
const MARKETING_SALES = [
  'What words do customers use to describe their problem?',
  'Which benefits do customers mention most when they explain why they bought?',
  'What objections come up before customers buy?',
  'Which competitors come up in sales conversations, and how do we compare?',
  'What triggers a customer to start looking for a solution?',
  'Who is involved in the buying decision?',
  'What do customers say about our pricing and packaging?',
  'Which customer stories would make good case studies?',
  'What messaging resonates with customers?',
  'Which industries or segments get the most value?',
  'Why do deals stall or get lost?',
  'What do customers expect to achieve in their first month?',
  'What do customers say about our website and marketing?',
  'What makes customers expand or upgrade?',
  'What do customers say about the trial experience?',
];
const SUPPORT_SUCCESS = [
  'What are the most common reasons customers contact support?',
  'Where do customers get confused in the product?',
  'What signs come before a customer churns?',
  'What do customers say about our support experience?',
  'Which help articles or guides are missing?',
  'What do successful customers do in their first weeks?',
  'Which bugs frustrate customers the most?',
];
const FINANCE_OPS_LEGAL = [
  'What do customers say about invoices and billing?',
  'What payment methods or terms do customers ask for?',
  'What do customers say about contracts and renewals?',
  'Which compliance requirements do customers mention?',
  'What do customers ask about data residency and privacy?',
  'What do customers say about procurement and vendor reviews?',
  'Which security questionnaires or certifications come up?',
  'What costs do customers say we save them?',
  'How do customers justify the budget for the product?',
  'What do customers say about discounts and pricing changes?',
  'Which operational processes do customers want to automate?',
  'What risks do customers see in adopting the product?',
  'What do customers say about service levels and uptime?',
  'What legal terms do customers push back on?',
  'What reporting do finance teams need from the product?',
  'How do customers measure return on investment?',
  'What do customers say about accessibility requirements?',
];

export const SUGGESTED_QUESTIONS = {
  general: GENERAL,
  marketingSales: MARKETING_SALES,
  supportSuccess: SUPPORT_SUCCESS,
  financeOpsLegal: FINANCE_OPS_LEGAL,
} as const;

/** Job roles (002 §3) mapped to their list; any other function, or none, gets the general list. */
const BY_FUNCTION: Readonly<Record<string, readonly string[]>> = {
  marketing: MARKETING_SALES,
  sales: MARKETING_SALES,
  support: SUPPORT_SUCCESS,
  'customer success': SUPPORT_SUCCESS,
  finance: FINANCE_OPS_LEGAL,
  operations: FINANCE_OPS_LEGAL,
  legal: FINANCE_OPS_LEGAL,
};

export function suggestedQuestions(jobFunction: string | null | undefined): readonly string[] {
  const key = (jobFunction ?? '').trim().toLowerCase().replace(/[_-]+/g, ' ');
  return BY_FUNCTION[key] ?? GENERAL;
}
