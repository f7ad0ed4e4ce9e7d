import { describe, expect, it } from 'vitest';
import { RESULT_SCHEMAS, type SearchResultType } from '../../filters/index.ts';
import {
  TRUE,
  FALSE,
  and,
  contains,
  empty,
  equalTo,
  greaterThan,
  isIn,
  lessThan,
  not,
  or,
  overlaps,
} from '../../filters/compile/predicate.ts';
import { accessFilterBy, compileFilterBy, quote, searchFilterBy } from './filter-by.ts';
import { SYSTEM_ATTRIBUTE_KINDS, collectionSchema } from './schema.ts';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const W = '99999999-9999-4999-8999-999999999999';
const FIELD = 'field.ABCDEF12-3456-4789-8abc-def012345678';
const CF = 'cf_abcdef12345647898abcdef012345678';

describe('Typesense filter_by', () => {
  it('quotes values in backticks, trading a backtick for an apostrophe', () => {
    expect(quote('a, b && (c)')).toBe('`a, b && (c)`');
    expect(quote('it`s')).toBe("`it's`");
  });

  it('compiles each leaf kind', () => {
    expect(compileFilterBy(contains('title', 'interview'), 'NOTE')).toBe('title:`interview`');
    expect(compileFilterBy(equalTo('title', 'Kickoff'), 'NOTE')).toBe('title:=`Kickoff`');
    expect(compileFilterBy(equalTo('projectId', P1.toUpperCase()), 'NOTE')).toBe(`projectId:=\`${P1}\``);
    expect(compileFilterBy(equalTo('id', P1), 'NOTE')).toBe(`itemId:=\`${P1}\``);
    expect(compileFilterBy(equalTo('tagIds', P1), 'NOTE')).toBe(`tagIds:=\`${P1}\``);
    expect(compileFilterBy(equalTo('archived', true), 'NOTE')).toBe('archived:=true');
    expect(compileFilterBy(equalTo('highlightCount', 3), 'NOTE')).toBe('highlightCount:=3');
    expect(compileFilterBy(greaterThan('highlightCount', 2), 'NOTE')).toBe('highlightCount:>2');
    expect(compileFilterBy(lessThan('createdAt', '2024-01-02T00:00:00.000Z'), 'NOTE')).toBe('createdAt:<1704153600000');
    expect(compileFilterBy(isIn('projectId', [P1, P2]), 'NOTE')).toBe(`projectId:=[\`${P1}\`,\`${P2}\`]`);
    expect(compileFilterBy(overlaps('tagIds', [P1, P2]), 'NOTE')).toBe(`tagIds:=[\`${P1}\`,\`${P2}\`]`);
    expect(compileFilterBy(empty('tagIds'), 'NOTE')).toBe('filledAttributes:!=`tagIds`');
  });

  it('negates leaves so that items without the attribute match the negation', () => {
    expect(compileFilterBy(not(empty('tagIds')), 'NOTE')).toBe('filledAttributes:=`tagIds`');
    expect(compileFilterBy(not(equalTo('title', 'Kickoff')), 'NOTE')).toBe(
      '(title:!=`Kickoff` || filledAttributes:!=`title`)',
    );
    expect(compileFilterBy(not(overlaps('tagIds', [P1])), 'NOTE')).toBe(
      `(tagIds:!=[\`${P1}\`] || filledAttributes:!=\`tagIds\`)`,
    );
    expect(compileFilterBy(not(greaterThan('highlightCount', 2)), 'NOTE')).toBe(
      '(highlightCount:<=2 || filledAttributes:!=`highlightCount`)',
    );
    expect(compileFilterBy(not(lessThan('updatedAt', '2024-01-01T00:00:00Z')), 'NOTE')).toBe(
      '(updatedAt:>=1704067200000 || filledAttributes:!=`updatedAt`)',
    );
    expect(compileFilterBy(not(contains('content', 'draft')), 'NOTE')).toBe(
      '(content:!=`draft` || filledAttributes:!=`content`)',
    );
  });

  it('combines with &&, || and parentheses, pushing not through by De Morgan', () => {
    const a = equalTo('archived', false);
    const b = overlaps('tagIds', [P1]);
    const c = greaterThan('highlightCount', 0);
    expect(compileFilterBy(and(a, or(b, c)), 'NOTE')).toBe(
      `archived:=false && (tagIds:=[\`${P1}\`] || highlightCount:>0)`,
    );
    expect(compileFilterBy(or(and(a, b), c), 'NOTE')).toBe(
      `((archived:=false && tagIds:=[\`${P1}\`]) || highlightCount:>0)`,
    );
    expect(compileFilterBy(not(or(a, empty('tagIds'))), 'NOTE')).toBe(
      '(archived:!=false || filledAttributes:!=`archived`) && filledAttributes:=`tagIds`',
    );
    expect(compileFilterBy(not(and(empty('tagIds'), empty('personIds'))), 'NOTE')).toBe(
      '(filledAttributes:=`tagIds` || filledAttributes:=`personIds`)',
    );
  });

  it('folds constants: attributes a type lacks read as empty, bad dates match nothing', () => {
    expect(compileFilterBy(TRUE, 'NOTE')).toBe(true);
    expect(compileFilterBy(FALSE, 'NOTE')).toBe(false);
    expect(compileFilterBy(equalTo('published', true), 'NOTE')).toBe(false);
    expect(compileFilterBy(empty('published'), 'NOTE')).toBe(true);
    expect(compileFilterBy(not(equalTo('published', true)), 'NOTE')).toBe(true);
    expect(compileFilterBy(greaterThan('createdAt', 'yesterday'), 'NOTE')).toBe(false);
    expect(compileFilterBy(and(equalTo('archived', true), equalTo('published', true)), 'NOTE')).toBe(false);
    expect(compileFilterBy(or(equalTo('archived', true), equalTo('published', true)), 'NOTE')).toBe('archived:=true');
  });

  it('reads custom fields from the typed field the value calls for', () => {
    expect(compileFilterBy(equalTo(FIELD, 5), 'NOTE')).toBe(`${CF}_n:=5`);
    expect(compileFilterBy(equalTo(FIELD, true), 'NOTE')).toBe(`${CF}_b:=true`);
    expect(compileFilterBy(equalTo(FIELD, 'Acme'), 'NOTE')).toBe(`(${CF}_s:=\`Acme\` || ${CF}_l:=\`acme\`)`);
    expect(compileFilterBy(greaterThan(FIELD, 10), 'NOTE')).toBe(`${CF}_n:>10`);
    expect(compileFilterBy(greaterThan(FIELD, '2024-01-01'), 'NOTE')).toBe(`${CF}_t:>1704067200000`);
    expect(compileFilterBy(overlaps(FIELD, [P1]), 'NOTE')).toBe(`(${CF}_l:=[\`${P1}\`] || ${CF}_s:=[\`${P1}\`])`);
    expect(compileFilterBy(contains(FIELD, 'acme'), 'NOTE')).toBe(`${CF}_s:\`acme\``);
    expect(compileFilterBy(empty(FIELD), 'NOTE')).toBe(`filledAttributes:!=\`${CF}\``);
    expect(compileFilterBy(not(overlaps(FIELD, [P1])), 'NOTE')).toBe(
      `((${CF}_l:!=[\`${P1}\`] && ${CF}_s:!=[\`${P1}\`]) || filledAttributes:!=\`${CF}\`)`,
    );
    // Highlights have no custom fields.
    expect(compileFilterBy(equalTo(FIELD, 5), 'HIGHLIGHT')).toBe(false);
  });

  it('always ANDs in the workspace and the readable projects', () => {
    expect(accessFilterBy(W, { allProjects: true, projectIds: [] }, 'NOTE')).toBe(`workspaceId:=\`${W}\``);
    expect(accessFilterBy(W, { allProjects: false, projectIds: [P1, P2] }, 'NOTE')).toBe(
      `workspaceId:=\`${W}\` && projectId:=[\`${P1}\`,\`${P2}\`]`,
    );
    expect(accessFilterBy(W, { allProjects: false, projectIds: [] }, 'NOTE')).toBe(false);
    expect(accessFilterBy(W, { allProjects: false, projectIds: [P1] }, 'TAG')).toBe(
      `workspaceId:=\`${W}\` && (projectId:=[\`${P1}\`] || filledAttributes:!=\`projectId\`)`,
    );
    expect(accessFilterBy(W, { allProjects: false, projectIds: [] }, 'PERSON')).toBe(
      `workspaceId:=\`${W}\` && filledAttributes:!=\`projectId\``,
    );
    expect(
      searchFilterBy(
        W,
        { allProjects: false, projectIds: [P1] },
        'NOTE',
        or(equalTo('archived', true), empty('tagIds')),
      ),
    ).toBe(`workspaceId:=\`${W}\` && projectId:=[\`${P1}\`] && (archived:=true || filledAttributes:!=\`tagIds\`)`);
    expect(searchFilterBy(W, { allProjects: false, projectIds: [] }, 'NOTE', TRUE)).toBe(false);
    expect(searchFilterBy(W, { allProjects: true, projectIds: [] }, 'NOTE', FALSE)).toBe(false);
  });

  it('knows the kind of every attribute a result type names, and declares a field for it', () => {
    for (const [type, schema] of Object.entries(RESULT_SCHEMAS)) {
      const fields = new Set(collectionSchema('t_', type as SearchResultType).fields.map((f) => f.name));
      for (const attribute of Object.values(schema.system)) {
        expect(SYSTEM_ATTRIBUTE_KINDS[attribute!.name], `${type}.${attribute!.name}`).toBeDefined();
        expect(fields.has(attribute!.name === 'id' ? 'itemId' : attribute!.name), `${type}.${attribute!.name}`).toBe(
          true,
        );
      }
    }
  });
});
