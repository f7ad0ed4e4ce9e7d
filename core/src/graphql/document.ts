import {
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { requestRefused } from './errors.ts';

/**
 * Bounds on a document, checked before and while it is parsed: what the web app and plugins send
 * is a few hundred tokens, and parsing and validating work grows with the document, so a
 * megabyte of repeated arguments must be refused before it costs seconds of CPU.
 */
export const MAX_DOCUMENT_LENGTH = 100_000;
export const MAX_DOCUMENT_TOKENS = 10_000;

/** Parses a document within the bounds above; a longer one is refused without being read. */
export function parseBounded(text: string): DocumentNode {
  if (text.length > MAX_DOCUMENT_LENGTH) {
    throw requestRefused(`The GraphQL document is longer than ${MAX_DOCUMENT_LENGTH} characters, the limit.`);
  }
  try {
    return parse(text, { maxTokens: MAX_DOCUMENT_TOKENS });
  } catch (err) {
    // graphql-js words it "more that N tokens".
    if (err instanceof GraphQLError && /more th\w+ \d+ tokens/.test(err.message)) {
      throw requestRefused(`The GraphQL document has more than ${MAX_DOCUMENT_TOKENS} tokens, the limit.`);
    }
    // The parser recurses into nested lists and objects: thousands of `[` within the token limit
    // exhaust the stack before anything else goes wrong.
    if (err instanceof RangeError) throw requestRefused('The GraphQL document nests values too deeply.');
    throw err;
  }
}

/**
 * Clients send the same few operations over and over: each distinct text is parsed and validated
 * once, then reused (the schema never changes while the process runs). Bounded, and only
 * documents that passed validation are kept, so the cache never holds errors. A document valid
 * under one set of rules is not taken as valid under another (anonymous requests have more).
 * `precheck` rules (the document limits) are also among the rules; they run first on their own.
 */
export function documentCache(
  opts: { precheck?: readonly ValidationRule[]; maxEntries?: number; maxQueryLength?: number } = {},
) {
  const { precheck = [], maxEntries = 500, maxQueryLength = 20_000 } = opts;
  const parsed = new Map<string, DocumentNode>();
  const valid = new WeakMap<readonly ValidationRule[], WeakSet<DocumentNode>>();
  return {
    parse(source: string | { body: string }): DocumentNode {
      const text = typeof source === 'string' ? source : source.body;
      const hit = parsed.get(text);
      if (hit) return hit;
      const document = parseBounded(text);
      if (text.length <= maxQueryLength) {
        if (parsed.size >= maxEntries) parsed.delete(parsed.keys().next().value!);
        parsed.set(text, document);
      }
      return document;
    },
    validate(
      schema: GraphQLSchema,
      document: DocumentNode,
      rules: readonly ValidationRule[] = specifiedRules,
    ): readonly GraphQLError[] {
      let passed = valid.get(rules);
      if (passed?.has(document)) return [];
      // The cheap limits run alone first: a document over them is refused before graphql-js's own
      // rules, some of which cost far more than linear time on a hostile document, look at it.
      const over = precheck.length ? validate(schema, document, precheck) : [];
      if (over.length) return over;
      const errors = validate(schema, document, rules);
      if (!errors.length) {
        if (!passed) valid.set(rules, (passed = new WeakSet()));
        passed.add(document);
      }
      return errors;
    },
  };
}
