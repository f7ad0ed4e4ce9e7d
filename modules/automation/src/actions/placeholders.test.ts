import { describe, expect, it } from 'vitest';
import { fill, fillParameters } from './placeholders.ts';

describe('placeholders', () => {
  const payload = { project: { title: 'Onboarding' }, note: { title: 'Call with Bo' }, tags: ['a', 'b'], views: 3 };

  it('fills dotted paths, leaves nothing for missing ones, and writes lists as JSON', () => {
    expect(fill('{{note.title}} in {{ project.title }}', payload)).toBe('Call with Bo in Onboarding');
    expect(fill('[{{nope.here}}]', payload)).toBe('[]');
    expect(fill('{{tags}} / {{views}}', payload)).toBe('["a","b"] / 3');
    expect(fill('{{not closed', payload)).toBe('{{not closed');
  });

  it('fills every string inside parameters and nothing else', () => {
    expect(
      fillParameters(
        { text: 'New: {{note.title}}', channelIds: ['C1', '{{project.title}}'], count: 2, flag: true },
        payload,
      ),
    ).toEqual({
      text: 'New: Call with Bo',
      channelIds: ['C1', 'Onboarding'],
      count: 2,
      flag: true,
    });
  });
});
