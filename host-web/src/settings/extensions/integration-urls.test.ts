import { describe, expect, it } from 'vitest';
import { integrationOutcome, safeOrigin } from './integration-urls.ts';

describe('integration return addresses', () => {
  it('accepts only relative paths', () => {
    expect(safeOrigin('/settings/integrations', '/home')).toBe('/settings/integrations');
    expect(safeOrigin('https://evil.example', '/home')).toBe('/home');
    expect(safeOrigin('//evil.example/x', '/home')).toBe('/home');
    expect(safeOrigin('/\\evil.example', '/home')).toBe('/home');
    expect(safeOrigin(null, '/home')).toBe('/home');
  });

  it('reads what the provider sent back', () => {
    expect(integrationOutcome('?integration=slack&connected=1')).toEqual({
      integration: 'slack',
      connected: true,
      error: null,
    });
    expect(integrationOutcome('?integration=slack&integrationError=Access%20denied')).toEqual({
      integration: 'slack',
      connected: false,
      error: 'Access denied',
    });
  });
});
