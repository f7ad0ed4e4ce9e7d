import { describe, expect, it } from 'vitest';
import { OPERATORS_BY_TYPE } from './operators.ts';
import { buildRules, evaluateCondition, evaluateRules, type RuleField } from './rules.ts';

const fields: RuleField[] = [
  { path: 'title', type: 'string' },
  { path: 'views', type: 'number' },
  { path: 'premium', type: 'boolean' },
  { path: 'at', type: 'date' },
  { path: 'tags', type: 'array' },
  { path: 'status', type: 'enum', options: ['active', 'archived', 'completed'] },
];

const one = (field: string, operator: string, value?: unknown) => ({
  combinator: 'AND',
  conditions: [{ field, operator, value }],
});

describe('building rules', () => {
  it('refuses a malformed set', () => {
    for (const bad of [
      null,
      'x',
      [],
      {},
      { combinator: 'XOR', conditions: [] },
      { combinator: 'AND', conditions: 'x' },
      { combinator: 'AND', conditions: [42] },
      { combinator: 'AND', conditions: [{ field: 'title' }] },
    ]) {
      expect(() => buildRules(bad, fields)).toThrow('Invalid rules structure');
    }
  });

  it('refuses a set without conditions', () => {
    expect(() => buildRules({ combinator: 'OR', conditions: [] }, fields)).toThrow(
      'Cannot build rules without any conditions',
    );
  });

  it('offers each field type exactly its operators', () => {
    expect(OPERATORS_BY_TYPE.string).toEqual(['equal', 'notEqual', 'contains', 'startsWith', 'endsWith']);
    expect(OPERATORS_BY_TYPE.number).toEqual([
      'greaterThanOrEqual',
      'equal',
      'notEqual',
      'greaterThan',
      'lessThan',
      'lessThanOrEqual',
    ]);
    expect(OPERATORS_BY_TYPE.boolean).toEqual(['equal', 'notEqual']);
    expect(OPERATORS_BY_TYPE.date).toEqual(['equal', 'notEqual', 'before', 'after', 'onOrBefore', 'onOrAfter']);
    expect(OPERATORS_BY_TYPE.array).toEqual([
      'contains',
      'notContains',
      'isEmpty',
      'isNotEmpty',
      'lengthEqual',
      'lengthGreaterThan',
      'lengthLessThan',
    ]);
    expect(OPERATORS_BY_TYPE.enum).toEqual(['equal', 'notEqual', 'in', 'notIn']);
  });

  it('refuses an operator of another field type', () => {
    expect(() => buildRules(one('title', 'greaterThan', 3), fields)).toThrow(
      'Invalid operator greaterThan for field type string',
    );
    expect(() => buildRules(one('premium', 'contains', true), fields)).toThrow(
      'Invalid operator contains for field type boolean',
    );
    expect(() => buildRules(one('tags', 'equal', 'x'), fields)).toThrow('Invalid operator equal for field type array');
    expect(() => buildRules(one('status', 'startsWith', 'a'), fields)).toThrow(
      'Invalid operator startsWith for field type enum',
    );
    expect(() => buildRules(one('at', 'greaterThan', '2026-01-01'), fields)).toThrow(
      'Invalid operator greaterThan for field type date',
    );
  });

  it('refuses a condition it cannot create, saying why', () => {
    expect(() => buildRules(one('nope', 'equal', 'x'), fields)).toThrow(
      'Failed to create condition: unknown field nope',
    );
    expect(() => buildRules(one('views', 'equal', 'three'), fields)).toThrow(
      'Failed to create condition: views compares with a number',
    );
    expect(() => buildRules(one('premium', 'equal', 'yes'), fields)).toThrow(
      'Failed to create condition: premium compares with true or false',
    );
    expect(() => buildRules(one('at', 'before', 'not a date'), fields)).toThrow(
      'Failed to create condition: at compares with a date',
    );
    expect(() => buildRules(one('status', 'in', ['active', 'gone']), fields)).toThrow(
      'Failed to create condition: gone is not a value of status',
    );
    expect(() => buildRules(one('tags', 'lengthEqual', -1), fields)).toThrow('Failed to create condition:');
    expect(() => buildRules(one('title', 'equal'), fields)).toThrow('Failed to create condition: title needs a value');
  });

  it('accepts valueless operators without a value and defaults the combinator to AND', () => {
    expect(buildRules({ conditions: [{ field: 'tags', operator: 'isEmpty' }] }, fields)).toEqual({
      combinator: 'AND',
      conditions: [{ field: 'tags', operator: 'isEmpty' }],
    });
  });
});

const c = (operator: string, value?: unknown) => ({ field: 'x', operator: operator as never, value });

describe('evaluating conditions', () => {
  it('string operators, compared in string form', () => {
    expect(evaluateCondition(c('equal', 'Churn'), 'Churn', 'string')).toBe(true);
    expect(evaluateCondition(c('equal', 'churn'), 'Churn', 'string')).toBe(false);
    expect(evaluateCondition(c('equal', '3'), 3, 'string')).toBe(true);
    expect(evaluateCondition(c('notEqual', 'a'), 'b', 'string')).toBe(true);
    expect(evaluateCondition(c('notEqual', 'a'), 'a', 'string')).toBe(false);
    expect(evaluateCondition(c('contains', 'urn'), 'Churn', 'string')).toBe(true);
    expect(evaluateCondition(c('contains', 'x'), 'Churn', 'string')).toBe(false);
    expect(evaluateCondition(c('startsWith', 'Ch'), 'Churn', 'string')).toBe(true);
    expect(evaluateCondition(c('startsWith', 'urn'), 'Churn', 'string')).toBe(false);
    expect(evaluateCondition(c('endsWith', 'urn'), 'Churn', 'string')).toBe(true);
    expect(evaluateCondition(c('endsWith', 'Ch'), 'Churn', 'string')).toBe(false);
  });

  it('number operators', () => {
    expect(evaluateCondition(c('equal', 5), 5, 'number')).toBe(true);
    expect(evaluateCondition(c('notEqual', 5), 4, 'number')).toBe(true);
    expect(evaluateCondition(c('greaterThan', 5), 5, 'number')).toBe(false);
    expect(evaluateCondition(c('greaterThan', 5), 6, 'number')).toBe(true);
    expect(evaluateCondition(c('greaterThanOrEqual', 5), 5, 'number')).toBe(true);
    expect(evaluateCondition(c('greaterThanOrEqual', 5), 4, 'number')).toBe(false);
    expect(evaluateCondition(c('lessThan', 5), 4, 'number')).toBe(true);
    expect(evaluateCondition(c('lessThan', 5), 5, 'number')).toBe(false);
    expect(evaluateCondition(c('lessThanOrEqual', 5), 5, 'number')).toBe(true);
    expect(evaluateCondition(c('lessThanOrEqual', 5), 6, 'number')).toBe(false);
  });

  it('boolean operators', () => {
    expect(evaluateCondition(c('equal', true), true, 'boolean')).toBe(true);
    expect(evaluateCondition(c('equal', true), false, 'boolean')).toBe(false);
    expect(evaluateCondition(c('notEqual', true), false, 'boolean')).toBe(true);
    expect(evaluateCondition(c('notEqual', false), false, 'boolean')).toBe(false);
  });

  it('date operators', () => {
    const d = '2026-03-01T10:00:00Z';
    expect(evaluateCondition(c('equal', d), '2026-03-01T11:00:00+01:00', 'date')).toBe(true);
    expect(evaluateCondition(c('notEqual', d), '2026-03-02T10:00:00Z', 'date')).toBe(true);
    expect(evaluateCondition(c('before', d), '2026-02-28T00:00:00Z', 'date')).toBe(true);
    expect(evaluateCondition(c('before', d), d, 'date')).toBe(false);
    expect(evaluateCondition(c('after', d), '2026-03-02T00:00:00Z', 'date')).toBe(true);
    expect(evaluateCondition(c('after', d), d, 'date')).toBe(false);
    expect(evaluateCondition(c('onOrBefore', d), d, 'date')).toBe(true);
    expect(evaluateCondition(c('onOrBefore', d), '2026-03-02T00:00:00Z', 'date')).toBe(false);
    expect(evaluateCondition(c('onOrAfter', d), d, 'date')).toBe(true);
    expect(evaluateCondition(c('onOrAfter', d), '2026-02-01T00:00:00Z', 'date')).toBe(false);
  });

  it('array operators', () => {
    expect(evaluateCondition(c('contains', 'ux'), ['ux', 'pricing'], 'array')).toBe(true);
    expect(evaluateCondition(c('contains', 'ops'), ['ux'], 'array')).toBe(false);
    expect(evaluateCondition(c('notContains', 'ops'), ['ux'], 'array')).toBe(true);
    expect(evaluateCondition(c('notContains', 'ux'), ['ux'], 'array')).toBe(false);
    expect(evaluateCondition(c('isEmpty'), [], 'array')).toBe(true);
    expect(evaluateCondition(c('isEmpty'), ['a'], 'array')).toBe(false);
    expect(evaluateCondition(c('isNotEmpty'), ['a'], 'array')).toBe(true);
    expect(evaluateCondition(c('isNotEmpty'), [], 'array')).toBe(false);
    expect(evaluateCondition(c('lengthEqual', 2), ['a', 'b'], 'array')).toBe(true);
    expect(evaluateCondition(c('lengthEqual', 2), ['a'], 'array')).toBe(false);
    expect(evaluateCondition(c('lengthGreaterThan', 1), ['a', 'b'], 'array')).toBe(true);
    expect(evaluateCondition(c('lengthGreaterThan', 2), ['a', 'b'], 'array')).toBe(false);
    expect(evaluateCondition(c('lengthLessThan', 2), ['a'], 'array')).toBe(true);
    expect(evaluateCondition(c('lengthLessThan', 1), ['a'], 'array')).toBe(false);
  });

  it('enum operators', () => {
    expect(evaluateCondition(c('equal', 'active'), 'active', 'enum')).toBe(true);
    expect(evaluateCondition(c('equal', 'active'), 'archived', 'enum')).toBe(false);
    expect(evaluateCondition(c('notEqual', 'active'), 'archived', 'enum')).toBe(true);
    expect(evaluateCondition(c('in', ['active', 'completed']), 'completed', 'enum')).toBe(true);
    expect(evaluateCondition(c('in', ['active']), 'archived', 'enum')).toBe(false);
    expect(evaluateCondition(c('notIn', ['active']), 'archived', 'enum')).toBe(true);
    expect(evaluateCondition(c('notIn', ['active']), 'active', 'enum')).toBe(false);
  });

  it('a missing value is true only for notEqual, whatever the type', () => {
    for (const [type, ops] of Object.entries(OPERATORS_BY_TYPE)) {
      for (const op of ops) {
        expect(evaluateCondition(c(op, 'x'), undefined, type as never), `${type} ${op}`).toBe(op === 'notEqual');
        expect(evaluateCondition(c(op, 'x'), null, type as never), `${type} ${op} null`).toBe(op === 'notEqual');
      }
    }
  });
});

describe('evaluating rule sets', () => {
  const rules = (combinator: 'AND' | 'OR') =>
    buildRules(
      {
        combinator,
        conditions: [
          { field: 'title', operator: 'contains', value: 'churn' },
          { field: 'views', operator: 'greaterThan', value: 10 },
        ],
      },
      fields,
    );

  it('AND needs every condition, OR any', () => {
    expect(evaluateRules(rules('AND'), { title: 'churn risk', views: 11 }, fields)).toBe(true);
    expect(evaluateRules(rules('AND'), { title: 'churn risk', views: 3 }, fields)).toBe(false);
    expect(evaluateRules(rules('OR'), { title: 'churn risk', views: 3 }, fields)).toBe(true);
    expect(evaluateRules(rules('OR'), { title: 'pricing', views: 3 }, fields)).toBe(false);
  });

  it('reads dotted paths and treats no rules as always true', () => {
    const nested = buildRules(one('project.title', 'equal', 'X'), [{ path: 'project.title', type: 'string' }]);
    expect(evaluateRules(nested, { project: { title: 'X' } }, [{ path: 'project.title', type: 'string' }])).toBe(true);
    expect(evaluateRules(nested, { project: null }, [{ path: 'project.title', type: 'string' }])).toBe(false);
    expect(evaluateRules(null, {}, fields)).toBe(true);
  });
});
