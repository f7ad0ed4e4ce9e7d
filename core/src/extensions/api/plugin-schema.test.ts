import { describe, expect, it } from 'vitest';
import { checkPluginTypeDefs } from './plugin-schema.ts';

const none = { query: [], mutation: [] };

describe("a plugin's GraphQL", () => {
  it('may declare type, input and enum definitions named after the plugin, and extend Query and Mutation', () => {
    const names = checkPluginTypeDefs(
      'notes-relay',
      `enum NotesRelayKind { A B }
       input NotesRelayFilter { kind: NotesRelayKind }
       type NotesRelayItem { id: ID! kind: NotesRelayKind! at: DateTime extra: JSON }
       extend type Query { notesRelayItems(filter: NotesRelayFilter): [NotesRelayItem!]! }
       extend type Mutation { notesRelayPing: Boolean! }`,
      { query: ['notesRelayItems'], mutation: ['notesRelayPing'] },
    );
    expect(names).toEqual({
      types: ['NotesRelayKind', 'NotesRelayFilter', 'NotesRelayItem'],
      query: ['notesRelayItems'],
      mutation: ['notesRelayPing'],
    });
  });

  it("refuses Fieldbook's types, declared again or extended, and other kinds of definition", () => {
    expect(() => checkPluginTypeDefs('slack', 'type Note { id: ID! }', none)).toThrow(
      'The GraphQL of slack declares the type Note; a plugin\'s own types must start with "Slack" (e.g. SlackItem), and Fieldbook\'s may only be extended at Query and Mutation.',
    );
    expect(() => checkPluginTypeDefs('slack', 'extend type User { slackBadge: String }', none)).toThrow(
      'The GraphQL of slack declares an extension of User; a plugin may only extend Query and Mutation, and declare type, input and enum definitions whose names start with "Slack".',
    );
    expect(() => checkPluginTypeDefs('slack', 'type Query { slackX: Int }', none)).toThrow(/declares the type Query;/);
    expect(() => checkPluginTypeDefs('slack', 'extend type SlackItem { more: Int }', none)).toThrow(
      /declares an extension of SlackItem;/,
    );
    expect(() => checkPluginTypeDefs('slack', 'scalar SlackTime', none)).toThrow(/declares the type SlackTime;/);
    expect(() => checkPluginTypeDefs('slack', 'union SlackAny = SlackA | SlackB', none)).toThrow(
      /declares the type SlackAny;/,
    );
    expect(() => checkPluginTypeDefs('slack', 'interface SlackNode { id: ID! }', none)).toThrow(
      /declares the type SlackNode;/,
    );
    expect(() => checkPluginTypeDefs('slack', 'schema { query: SlackRoot }', none)).toThrow(
      /declares a schema definition;/,
    );
  });

  it('refuses directives, declared or used anywhere', () => {
    expect(() => checkPluginTypeDefs('slack', 'directive @slackAuth on FIELD_DEFINITION', none)).toThrow(
      /declares the directive @slackAuth;/,
    );
    expect(() => checkPluginTypeDefs('slack', 'type SlackItem @key(fields: "id") { id: ID! }', none)).toThrow(
      'The GraphQL of slack uses the directive @key on the type SlackItem; plugins may not use directives.',
    );
    expect(() => checkPluginTypeDefs('slack', 'type SlackItem { id: ID! @deprecated }', none)).toThrow(
      /directive @deprecated on SlackItem\.id;/,
    );
    expect(() =>
      checkPluginTypeDefs('slack', 'extend type Query { slackItems(first: Int @deprecated): Int }', {
        query: ['slackItems'],
        mutation: [],
      }),
    ).toThrow(/on Query\.slackItems\(first\);/);
    expect(() => checkPluginTypeDefs('slack', 'enum SlackKind { A @deprecated }', none)).toThrow(/on SlackKind\.A;/);
  });

  it('refuses fields without the prefix, references to types that are not its own, and mismatched resolvers', () => {
    expect(() =>
      checkPluginTypeDefs('notes-relay', 'extend type Query { relayCount: Int }', {
        query: ['relayCount'],
        mutation: [],
      }),
    ).toThrow('The GraphQL field Query.relayCount of notes-relay must start with "notesRelay".');
    expect(() =>
      checkPluginTypeDefs('slack', 'extend type Query { slackNote: Note }', { query: ['slackNote'], mutation: [] }),
    ).toThrow(/The GraphQL of slack is invalid: Unknown type "Note"/);
    expect(() =>
      checkPluginTypeDefs('slack', 'input SlackIn { a: Int } extend type Query { slackX: SlackIn }', {
        query: ['slackX'],
        mutation: [],
      }),
    ).toThrow(/is invalid: The type of Query\.slackX must be Output Type/);
    expect(() => checkPluginTypeDefs('slack', 'type SlackA { a: Int } type SlackA { b: Int }', none)).toThrow(
      /is invalid: There can be only one type named "SlackA"/,
    );
    expect(() => checkPluginTypeDefs('slack', 'extend type Query { slackX: Int', none)).toThrow(
      /The GraphQL of slack does not parse: Syntax Error/,
    );
    expect(() => checkPluginTypeDefs('slack', 'extend type Query { slackX: Int }', none)).toThrow(
      'The GraphQL field Query.slackX of slack has no resolver in graphql.query.',
    );
    expect(() =>
      checkPluginTypeDefs('slack', 'extend type Query { slackX: Int }', { query: ['slackX'], mutation: ['slackY'] }),
    ).toThrow('The resolver graphql.mutation.slackY of slack has no field in its typeDefs (extend type Mutation).');
  });
});
