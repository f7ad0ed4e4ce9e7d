import { describe, expect, it } from 'vitest';
import {
  generateSubdomain,
  isSubdomainLike,
  subdomainProblem,
  suggestedSubdomainFor,
} from '../../../core/src/workspaces/subdomain/subdomain.ts';

describe('workspace subdomain generation (002 §5)', () => {
  it.each([
    ['lowercases and turns spaces into hyphens', 'Acme Research', 'acme-research'],
    ['turns every space into a hyphen, then trims hyphens', '  Acme  Labs ', 'acme--labs'],
    ['keeps only letters, digits, slash and hyphen', 'R&D / Insights_2024!', 'rd-/-insights2024'],
    ['drops letters outside a to z', 'Café Society', 'caf-society'],
    ['trims hyphens at both ends only', '---Hello---World---', 'hello---world'],
    [
      'keeps a cut that ends exactly at a hyphen',
      'The Quick Brown Fox Jumps Over The Lazy Dog',
      'the-quick-brown-fox-jumps-over',
    ],
    [
      'cuts back to the last hyphen rather than split a word',
      'Customer Research Operations Team',
      'customer-research-operations',
    ],
    [
      'cuts a single long word at 30 characters',
      'Supercalifragilisticexpialidocious Team',
      'supercalifragilisticexpialidoc',
    ],
    ['leaves a short name as it is', 'Team 42', 'team-42'],
  ])('%s: %j becomes %j', (_why, name, expected) => {
    expect(generateSubdomain(name)).toBe(expected);
    expect(generateSubdomain(name).length).toBeLessThanOrEqual(30);
  });

  it.each([
    ['the first word is a reserved service word', 'Admin Tools', 'RESERVED'],
    ['the first word is www', 'WWW Team', 'RESERVED'],
    ['the first word is login', 'Login Helpers', 'RESERVED'],
    ['the first word is billing', 'Billing Squad', 'RESERVED'],
    ['the first word is a product word', 'Fieldbook Fans', 'RESERVED'],
    ['any word is profane', 'Holy Shit Research', 'BANNED'],
    ['the first word is profane', 'Shit Happens', 'BANNED'],
    ['it keeps a slash, which no subdomain may hold', 'R&D / Insights', 'NOT_SUBDOMAIN_LIKE'],
    ['it is shorter than 4 characters', 'Abc', 'TOO_SHORT'],
    ['nothing is left of the name', '!!!', 'EMPTY'],
  ])('refuses the generated subdomain when %s', (_why, name, problem) => {
    expect(subdomainProblem(generateSubdomain(name))).toBe(problem);
    expect(suggestedSubdomainFor(name)).toBeNull();
  });

  it('allows a reserved word anywhere but first, and words that only contain a banned one', () => {
    expect(suggestedSubdomainFor('Tools Admin')).toBe('tools-admin');
    expect(suggestedSubdomainFor('Scunthorpe Shitake Growers')).toBe('scunthorpe-shitake-growers');
  });

  it.each([
    ['abc', true],
    ['a1-b2', true],
    ['a'.repeat(50), true],
    ['a'.repeat(51), false],
    ['ab', false],
    ['-abc', false],
    ['abc-', false],
    ['ABC', false],
    ['a_bc', false],
    ['ab/c', false],
    ['ab.c', false],
  ])('treats %j as subdomain-like: %s', (value, expected) => {
    expect(isSubdomainLike(value)).toBe(expected);
  });

  it('limits a chosen subdomain to 4..63 characters', () => {
    expect(subdomainProblem('abcd')).toBeNull();
    expect(subdomainProblem('abc')).toBe('TOO_SHORT');
    expect(subdomainProblem('a'.repeat(64))).toBe('TOO_LONG');
  });
});
