import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeErrors } from '../support/typecheck.ts';

describe('automation action types', () => {
  it("type each action's params from its own parameters, with no annotation in execute", () => {
    // The assertions are in actions.test-d.ts; they hold only if it compiles.
    expect(typeErrors([join(import.meta.dirname, 'actions.test-d.ts')])).toEqual([]);
  }, 120_000);
});
