import { describe, expect, it } from 'vitest';
import { notificationText } from './notification-text.ts';

describe('notificationText', () => {
  it('says who commented or mentioned on what, leading to the note or insight', () => {
    expect(notificationText('mention', { actorName: 'Ana', objectTitle: 'Call', objectType: 'NOTE', objectId: 'n1' })).toEqual({ text: 'Ana mentioned you on “Call”', to: '/data/n1' });
    expect(notificationText('comment', { actorName: 'Bo', objectTitle: 'Pricing', objectType: 'INSIGHT', objectId: 'i1' })).toEqual({ text: 'Bo commented on “Pricing”', to: '/insights/i1' });
  });

  it('leads a finished import to its project, and reads an unknown type without failing', () => {
    expect(notificationText('project_import_completed', { projectId: 'p1', projectTitle: 'Study (imported)' })).toEqual({ text: '“Study (imported)” is imported', to: '/projects/p1' });
    expect(notificationText('something_new', {}).to).toBeNull();
  });
});
