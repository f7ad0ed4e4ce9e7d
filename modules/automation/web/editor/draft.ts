import type { ActionSpec, Automation, Recurrence, Rules } from '../api.ts';

/** What the editor holds while a person edits an automation. */
export interface Draft {
  title: string;
  type: 'Event' | 'Schedule';
  eventKey: string;
  configure: Record<string, string>;
  rules: Rules | null;
  recurrence: Recurrence;
  actions: Array<ActionSpec & { key: string }>;
}

let next = 0;
export const actionKey = () => `action-${++next}`;

export const emptyDraft = (): Draft => ({
  title: '',
  type: 'Event',
  eventKey: 'note:created',
  configure: {},
  rules: null,
  recurrence: { frequency: 'Weekly', weekday: 1, time: '09:00' },
  actions: [],
});

export const draftOf = (a: Automation): Draft => ({
  title: a.title,
  type: a.trigger.type,
  eventKey: a.trigger.eventKey,
  configure: a.trigger.configure ?? {},
  rules: a.trigger.rules,
  recurrence: a.trigger.recurrence ?? { frequency: 'Weekly', weekday: 1, time: '09:00' },
  actions: [...a.actions].sort((x, y) => x.executionOrder - y.executionOrder).map((x) => ({ ...x, key: actionKey() })),
});

/** The mutation's input: actions numbered in the order they are listed. */
export const inputOf = (d: Draft) => ({
  title: d.title,
  trigger: {
    type: d.type,
    eventKey: d.type === 'Schedule' ? 'userSchedule' : d.eventKey,
    configure: d.type === 'Schedule' ? {} : d.configure,
    rules: d.type === 'Schedule' ? null : d.rules,
    recurrence: d.type === 'Schedule' ? d.recurrence : null,
  },
  actions: d.actions.map((a, i) => ({
    actionType: a.actionType,
    pluginId: a.pluginId,
    parameters: a.parameters,
    executionOrder: i + 1,
  })),
});

/** Moves the item at `from` to `to`, keeping the others in order. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item!);
  return copy;
}
