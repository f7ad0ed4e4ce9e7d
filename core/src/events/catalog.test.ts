import { describe, expect, it } from 'vitest';
import { compositeOf, parseEventPayload, resolveTrigger, triggerEvent } from './catalog.ts';

describe('the trigger event catalog', () => {
  it('gives a composite the configure fields common to all its events', () => {
    expect(resolveTrigger('Channel').configure).toEqual(['channel.id']);
    expect(resolveTrigger('Channel').events.map((e) => e.key)).toEqual(['dataset:created', 'theme:created']);
    // project:created has no configure field, so the Project composite has none in common.
    expect(resolveTrigger('Project').configure).toEqual([]);
    expect(compositeOf('x', ['note:created', 'insight:published']).configure).toEqual(['project.id']);
    expect(compositeOf('x', ['note:created', 'insight:published']).fields.map((f) => f.path)).toEqual([
      'project.id',
      'project.title',
    ]);
  });

  it('refuses a composite without events and an unknown key', () => {
    expect(() => compositeOf('Empty', [])).toThrow('No events provided');
    expect(() => compositeOf('x', ['note:created', 'note:deleted'])).toThrow('Event not found: note:deleted');
    expect(() => triggerEvent('nope')).toThrow('Event not found: nope');
    expect(() => resolveTrigger('nope')).toThrow('Event not found: nope');
  });

  it('validates user:activity exactly', () => {
    const good = {
      user_id: 'u1',
      action: 'login',
      session_duration: 0,
      page_views: 3,
      engagement_score: 100,
      preferences: { notifications_enabled: true, theme: 'auto' },
    };
    expect(parseEventPayload('user:activity', good)).toMatchObject(good);
    expect(() => parseEventPayload('user:activity', { ...good, session_duration: -1 })).toThrow(
      'payload.session_duration',
    );
    expect(() => parseEventPayload('user:activity', { ...good, page_views: 1.5 })).toThrow('payload.page_views');
    expect(() => parseEventPayload('user:activity', { ...good, engagement_score: 101 })).toThrow(
      'payload.engagement_score',
    );
    expect(() => parseEventPayload('user:activity', { ...good, preferences: { theme: 'blue' } })).toThrow(
      'payload.preferences.theme',
    );
    expect(() =>
      parseEventPayload('user:activity', { ...good, preferences: { notifications_enabled: 'yes' } }),
    ).toThrow('payload.preferences.notifications_enabled');
  });

  it('checks a data event’s payload', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expect(() =>
      parseEventPayload('project:created', {
        project: { id },
        tags: [],
        status: 'ACTIVE',
        title: 'x',
        createdBy: null,
      }),
    ).toThrow('payload.status');
    expect(
      parseEventPayload('project:created', {
        project: { id },
        tags: ['a'],
        status: 'active',
        title: 'x',
        createdBy: null,
      }),
    ).toMatchObject({ tags: ['a'] });
  });
});
