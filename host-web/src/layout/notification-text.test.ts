import { describe, expect, it } from 'vitest';
import { notificationText } from './notification-text.ts';

describe('notificationText', () => {
  it('says who commented or mentioned on what, leading to the note or insight', () => {
    expect(
      notificationText('mention', { actorName: 'Ana', objectTitle: 'Call', objectType: 'NOTE', objectId: 'n1' }),
    ).toEqual({ text: 'Ana mentioned you on “Call”', to: '/data/n1' });
    expect(
      notificationText('comment', { actorName: 'Bo', objectTitle: 'Pricing', objectType: 'INSIGHT', objectId: 'i1' }),
    ).toEqual({ text: 'Bo commented on “Pricing”', to: '/insights/i1' });
  });

  it('names the tags applied and the change made to what the person follows', () => {
    expect(
      notificationText('followed_tag_applied', {
        actorName: 'Ana',
        target: 'HIGHLIGHT',
        objectType: 'NOTE',
        objectId: 'n1',
        objectTitle: 'Call',
        tagTitles: ['Churn', 'Pricing'],
      }),
    ).toEqual({
      text: 'Ana tagged a highlight in “Call” with Churn, Pricing, which you follow',
      to: '/data/n1',
    });
    expect(
      notificationText('followed_change', {
        actorName: 'Bo',
        change: 'ADDED',
        objectType: 'INSIGHT',
        objectId: 'i1',
        objectTitle: 'Seats',
        projectTitle: 'Study',
      }).text,
    ).toBe('Bo added “Seats” to Study, which you follow');
    expect(
      notificationText('followed_change', {
        actorName: 'Bo',
        change: 'EDITED',
        objectType: 'INSIGHT',
        objectId: 'i1',
        objectTitle: 'Seats',
      }).text,
    ).toBe('Bo edited “Seats”, which you follow');
  });

  it('leads a finished import to its project, and reads an unknown type without failing', () => {
    expect(notificationText('project_import_completed', { projectId: 'p1', projectTitle: 'Study (imported)' })).toEqual(
      { text: '“Study (imported)” is imported', to: '/projects/p1' },
    );
    expect(notificationText('something_new', {}).to).toBeNull();
  });
});
