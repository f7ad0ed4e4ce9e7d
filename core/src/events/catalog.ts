import { z } from 'zod';
import { AppError } from '../errors/app-error.ts';

/**
 * The domain events automations are triggered by (001 §3.1): each with its key, title, the kinds
 * of objects it is about (its context), the fields an automation may pin to a value when it is
 * configured (`project.id`: only this project's events) and the schema of its payload. Publishers
 * validate against the schema, so a subscriber may rely on every field it declares.
 *
 * Modules that do not exist yet publish the events declared for them here (channels: dataset,
 * theme and topic); the catalog is the contract between them and automation.
 */

/** Kinds of objects an event is about, and an automation may act on (001 §3.2 target kinds). */
export const EVENT_OBJECT_KINDS = ['insight', 'project', 'channel', 'theme', 'dataset', 'note', 'topic'] as const;
export type EventObjectKind = (typeof EVENT_OBJECT_KINDS)[number];

/** Field types of the rules engine (001 §5). */
export const EVENT_FIELD_TYPES = ['string', 'number', 'boolean', 'date', 'array', 'enum'] as const;
export type EventFieldType = (typeof EVENT_FIELD_TYPES)[number];

/** One field of a payload that rules may test; `path` is dotted (`project.title`). */
export interface EventField {
  path: string;
  label: string;
  type: EventFieldType;
  /** The values of an enum field. */
  options?: readonly string[];
}

export interface TriggerEventDefinition {
  key: string;
  title: string;
  context: readonly EventObjectKind[];
  /** Dotted paths of fields an automation may fix when it is configured (e.g. `project.id`). */
  configure: readonly string[];
  /** The payload's fields rules may test. */
  fields: readonly EventField[];
  payload: z.ZodType<Record<string, unknown>>;
  /** True for events published by people or schedules, not by a change of data. */
  external?: boolean;
}

const id = z.uuid();
const ref = (extra: z.ZodRawShape = {}) => z.object({ id, ...extra });
const titled = ref({ title: z.string() });

/** Project statuses as the payload carries them (001 §4). */
export const PROJECT_EVENT_STATUSES = ['active', 'archived', 'completed'] as const;
export const RECURRENCES = ['Daily', 'Weekly', 'Monthly', 'Yearly'] as const;
export type Recurrence = (typeof RECURRENCES)[number];
export const ACTIVITY_THEMES = ['light', 'dark', 'auto'] as const;

const f = (path: string, label: string, type: EventFieldType, options?: readonly string[]): EventField => ({
  path,
  label,
  type,
  ...(options ? { options } : {}),
});

const noteCreated = z.object({ note: titled, project: titled, createdBy: z.uuid().nullable() });
const insightPublished = z.object({ insight: titled, project: titled, publishedBy: z.uuid().nullable() });
const projectCreated = z.object({
  project: ref(),
  tags: z.array(z.string()),
  status: z.enum(PROJECT_EVENT_STATUSES),
  title: z.string(),
  createdBy: z.uuid().nullable(),
});
const channelObject = z.object({ channel: titled });
const datasetCreated = channelObject.extend({ dataset: titled });
const themeCreated = channelObject.extend({ theme: titled });
const topicCreated = channelObject.extend({ topic: titled });

/** user:activity exactly as 001 §3.1 lists it. */
export const userActivityPayload = z.object({
  user_id: z.string().min(1),
  action: z.string().min(1),
  session_duration: z.number().int().min(0),
  page_views: z.number().int().min(0),
  last_login: z.iso.datetime({ offset: true }).optional(),
  is_premium: z.boolean().optional(),
  engagement_score: z.number().min(0).max(100).optional(),
  preferences: z
    .object({ notifications_enabled: z.boolean(), theme: z.enum(ACTIVITY_THEMES) })
    .partial()
    .optional(),
});

const projectFields = [f('project.id', 'Project', 'string'), f('project.title', 'Project title', 'string')];
const channelFields = [f('channel.id', 'Channel', 'string'), f('channel.title', 'Channel title', 'string')];

export const TRIGGER_EVENTS: readonly TriggerEventDefinition[] = [
  {
    key: 'manual',
    title: 'Run manually',
    context: [],
    configure: [],
    fields: [],
    payload: z.record(z.string(), z.unknown()),
    external: true,
  },
  {
    key: 'insight:published',
    title: 'An insight is published',
    context: ['insight', 'project'],
    configure: ['project.id'],
    fields: [...projectFields, f('insight.id', 'Insight', 'string'), f('insight.title', 'Insight title', 'string')],
    payload: insightPublished,
  },
  {
    key: 'theme:created',
    title: 'A theme is created',
    context: ['theme', 'channel'],
    configure: ['channel.id'],
    fields: [...channelFields, f('theme.id', 'Theme', 'string'), f('theme.title', 'Theme title', 'string')],
    payload: themeCreated,
  },
  {
    key: 'note:created',
    title: 'A note is created',
    context: ['note', 'project'],
    configure: ['project.id'],
    fields: [...projectFields, f('note.id', 'Note', 'string'), f('note.title', 'Note title', 'string')],
    payload: noteCreated,
  },
  {
    key: 'dataset:created',
    title: 'A dataset is created',
    context: ['channel', 'dataset'],
    configure: ['channel.id'],
    fields: [...channelFields, f('dataset.id', 'Dataset', 'string'), f('dataset.title', 'Dataset title', 'string')],
    payload: datasetCreated,
  },
  {
    key: 'topic:created',
    title: 'A topic is created',
    context: ['topic', 'channel'],
    configure: ['channel.id'],
    fields: [...channelFields, f('topic.id', 'Topic', 'string'), f('topic.title', 'Topic title', 'string')],
    payload: topicCreated,
  },
  {
    key: 'userSchedule',
    title: 'On a schedule',
    context: [],
    configure: [],
    fields: [f('scheduledFor', 'Scheduled time', 'date'), f('recurrence', 'Recurrence', 'enum', RECURRENCES)],
    payload: z.object({ scheduledFor: z.iso.datetime({ offset: true }), recurrence: z.enum(RECURRENCES) }),
    external: true,
  },
  {
    key: 'project:created',
    title: 'A project is created',
    context: [],
    configure: [],
    fields: [
      f('project.id', 'Project', 'string'),
      f('title', 'Title', 'string'),
      f('status', 'Status', 'enum', PROJECT_EVENT_STATUSES),
      f('tags', 'Tags', 'array'),
    ],
    payload: projectCreated,
  },
  {
    key: 'user:activity',
    title: 'A person is active',
    context: [],
    configure: [],
    fields: [
      f('user_id', 'Person', 'string'),
      f('action', 'Action', 'string'),
      f('session_duration', 'Session duration', 'number'),
      f('page_views', 'Page views', 'number'),
      f('last_login', 'Last sign-in', 'date'),
      f('is_premium', 'Premium', 'boolean'),
      f('engagement_score', 'Engagement score', 'number'),
      f('preferences.notifications_enabled', 'Notifications enabled', 'boolean'),
      f('preferences.theme', 'Theme', 'enum', ACTIVITY_THEMES),
    ],
    payload: userActivityPayload,
    external: true,
  },
];

/** Groups of events one trigger may listen to at once (001 §3.1). */
export const COMPOSITE_TRIGGERS: Readonly<Record<string, readonly string[]>> = {
  Project: ['project:created', 'insight:published', 'note:created'],
  Channel: ['dataset:created', 'theme:created'],
};

const byKey = new Map(TRIGGER_EVENTS.map((e) => [e.key, e]));

/** The event of a key; 'Event not found: {key}' otherwise. */
/** Whether an event is one of the catalogue's triggers (without the error `triggerEvent` throws). */
export function isTriggerEvent(key: string): boolean {
  return byKey.has(key);
}

export function triggerEvent(key: string): TriggerEventDefinition {
  const event = byKey.get(key);
  if (!event) throw new AppError('BAD_USER_INPUT', `Event not found: ${key}`, { field: 'eventKey' });
  return event;
}

/** A trigger made of several events: what they have in common is what it offers. */
export interface CompositeTrigger {
  key: string;
  title: string;
  events: readonly TriggerEventDefinition[];
  configure: readonly string[];
  fields: readonly EventField[];
}

/** Builds a composite from event keys: configure fields and rule fields common to all of them. */
export function compositeOf(key: string, eventKeys: readonly string[]): CompositeTrigger {
  if (!eventKeys.length) throw new AppError('BAD_USER_INPUT', 'No events provided', { field: 'eventKey' });
  const events = eventKeys.map(triggerEvent);
  const [first, ...rest] = events;
  const configure = first!.configure.filter((c) => rest.every((e) => e.configure.includes(c)));
  const fields = first!.fields.filter((fd) =>
    rest.every((e) => e.fields.some((o) => o.path === fd.path && o.type === fd.type)),
  );
  return { key, title: events.map((e) => e.title).join(', '), events, configure, fields };
}

/** The events a trigger key listens to: the event itself, or a composite's members. */
export function resolveTrigger(key: string): CompositeTrigger {
  const members = COMPOSITE_TRIGGERS[key];
  if (members) return { ...compositeOf(key, members), title: `${key}: ${members.join(', ')}` };
  const event = triggerEvent(key);
  return { key, title: event.title, events: [event], configure: event.configure, fields: event.fields };
}

/** Validates a payload against its event's schema; BAD_USER_INPUT naming the field otherwise. */
export function parseEventPayload(key: string, payload: unknown): Record<string, unknown> {
  const result = triggerEvent(key).payload.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = ['payload', ...issue.path.map(String)].join('.');
  throw new AppError('BAD_USER_INPUT', `${field}: ${issue.message}`, { field });
}
