import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { checkFieldValue, FIELD_TYPES, type FieldType, type FieldValue } from '../fields/types.ts';
import { CHANNEL_LIMITS } from '../limits.ts';
import type { ImportedRecord } from '../sources/contract.ts';
import { personForEmail } from './people.ts';

export interface WriteTarget {
  workspaceId: string;
  channelId: string;
  datasetId: string;
  source: string;
  /** Who imports: people created for the records are theirs. */
  userId: string | null;
  /** Field types by label for values whose field does not exist yet (TEXT otherwise). */
  fieldTypes: Readonly<Record<string, string>>;
  /** maximumChannelsDataPoints (001 §3.9); null is no cap. */
  maximumDataPoints: number | null;
}

export type WriteOutcome = { status: 'created' | 'updated'; id: string } | { status: 'failed'; reason: string };

interface FieldRow {
  id: string;
  label: string;
  type: FieldType;
  options: Array<{ id: string; label: string }>;
}

const isFieldType = (t: string | undefined): t is FieldType => (FIELD_TYPES as readonly string[]).includes(t ?? '');

const SENTIMENTS = new Set(['positive', 'negative', 'mixed']);

const isHttpUrl = (text: string): boolean => {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && text.length <= CHANNEL_LIMITS.url;
  } catch {
    return false;
  }
};

/** Why a record cannot be stored as it is, or null. Field values are checked separately. */
function recordProblem(r: ImportedRecord): string | null {
  if (typeof r.externalId !== 'string' || !r.externalId.trim()) return 'externalId is missing.';
  if (r.externalId.length > CHANNEL_LIMITS.externalId) return `externalId can be at most ${CHANNEL_LIMITS.externalId} characters long.`;
  if (typeof r.content !== 'string' || !r.content.trim()) return 'content is empty.';
  if ([...r.content].length > CHANNEL_LIMITS.content) return `content can be at most ${CHANNEL_LIMITS.content} characters long.`;
  if (r.content.includes('\0')) return 'content contains a NUL character.';
  if (typeof r.createdAt !== 'string' || Number.isNaN(Date.parse(r.createdAt))) return 'createdAt must be a date in ISO 8601 form.';
  for (const key of ['externalUrl', 'importUrl'] as const) {
    const url = r[key];
    if (url && !isHttpUrl(url)) return `${key} must be a web address starting with http:// or https://, of at most ${CHANNEL_LIMITS.url} characters.`;
  }
  if (r.sentiment && !SENTIMENTS.has(r.sentiment)) return 'sentiment must be positive, negative or mixed.';
  if (r.person?.email && (r.person.email.length > CHANNEL_LIMITS.email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(r.person.email))) return `person.email must be an email address of at most ${CHANNEL_LIMITS.email} characters.`;
  return null;
}

/**
 * Writes records into a dataset: a record whose externalId the dataset already has updates that
 * data point, any other creates one. Each record fails alone with its reason (a bad value, the
 * data point limit); the others go in. Runs inside the caller's transaction.
 */
export async function writeRecords(trx: Knex.Transaction, target: WriteTarget, records: readonly ImportedRecord[]): Promise<WriteOutcome[]> {
  const fields = new Map<string, FieldRow>();
  for (const f of (await trx('channel_fields').where({ channel_id: target.channelId, workspace_id: target.workspaceId }).select('id', 'label', 'type', 'options')) as FieldRow[]) {
    fields.set(f.label.toLowerCase(), f);
  }
  const changedOptions = new Set<FieldRow>();
  let room = Infinity;
  if (target.maximumDataPoints !== null) {
    // One writer per workspace at a time, so concurrent imports cannot both take the last room.
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`channel-datapoints:${target.workspaceId}`]);
    const [{ count }] = (await trx('channel_datapoints').where({ workspace_id: target.workspaceId }).count<Array<{ count: string }>>('* as count')) as [{ count: string }];
    room = target.maximumDataPoints - Number(count);
  }

  const outcomes: WriteOutcome[] = [];
  const pending: Array<{ at: number; externalId: string; row: Record<string, unknown> }> = [];
  for (const record of records) {
    const problem = recordProblem(record);
    if (problem) {
      outcomes.push({ status: 'failed', reason: problem });
      continue;
    }
    const values: Record<string, FieldValue> = {};
    let failed: string | null = null;
    for (const [label, input] of Object.entries(record.fields ?? {})) {
      const key = label.trim().slice(0, CHANNEL_LIMITS.fieldLabel);
      if (!key) continue;
      let field = fields.get(key.toLowerCase());
      const declared = target.fieldTypes[label];
      const type: FieldType = field?.type ?? (isFieldType(declared) ? declared : 'TEXT');
      const checked = checkFieldValue(type, key, input);
      if (!checked.ok) {
        failed = checked.reason;
        break;
      }
      if (!field) {
        const [row] = (await trx('channel_fields')
          .insert({ id: randomUUID(), workspace_id: target.workspaceId, channel_id: target.channelId, label: key, type })
          .onConflict(trx.raw('(channel_id, lower(label))'))
          .merge({ label: trx.raw('channel_fields.label') })
          .returning(['id', 'label', 'type', 'options'])) as FieldRow[];
        field = row!;
        fields.set(key.toLowerCase(), field);
      }
      if (checked.options) {
        for (const option of checked.options) {
          if (field.options.some((o) => o.label.toLowerCase() === option.toLowerCase())) continue;
          if (field.options.length >= CHANNEL_LIMITS.selectOptions) {
            failed = `${key} already has ${CHANNEL_LIMITS.selectOptions} options, the most a field can have.`;
            break;
          }
          field.options.push({ id: randomUUID(), label: option });
          changedOptions.add(field);
        }
        if (failed) break;
      }
      values[field.id] = checked.value;
    }
    if (failed) {
      outcomes.push({ status: 'failed', reason: failed });
      continue;
    }

    const personId = record.person?.email ? await personForEmail(trx, target.workspaceId, target.userId, record.person.email.toLowerCase(), record.person.name) : null;
    const row = {
      external_url: record.externalUrl ?? null,
      import_url: record.importUrl ?? null,
      source: target.source,
      content: record.content,
      created_at: new Date(record.createdAt),
      raw: record.raw ? JSON.stringify(record.raw) : null,
      person_id: personId,
      sentiment: record.sentiment ?? null,
      fields: JSON.stringify(values),
    };
    pending.push({ at: outcomes.length, externalId: record.externalId, row });
    outcomes.push({ status: 'failed', reason: 'not written' });
  }

  // The valid records are written together: one query finds those the dataset already has, one
  // multi-row insert writes the new ones (ids made here), so a batch costs a few round trips
  // rather than two per record.
  const existingIds = new Map<string, string>();
  if (pending.length) {
    const found = (await trx('channel_datapoints')
      .where({ dataset_id: target.datasetId })
      .whereIn('external_id', [...new Set(pending.map((p) => p.externalId))])
      .select('id', 'external_id')) as Array<{ id: string; external_id: string }>;
    for (const f of found) existingIds.set(f.external_id, f.id);
  }
  const inserts = new Map<string, Record<string, unknown>>();
  for (const p of pending) {
    const existing = existingIds.get(p.externalId);
    if (existing) {
      const queued = inserts.get(p.externalId);
      // The same external id twice in one batch: the later record is an update of the earlier one.
      if (queued && queued.id === existing) Object.assign(queued, p.row);
      else await trx('channel_datapoints').where({ id: existing }).update({ ...p.row, updated_at: trx.fn.now() });
      outcomes[p.at] = { status: 'updated', id: existing };
      continue;
    }
    if (room <= 0) {
      outcomes[p.at] = { status: 'failed', reason: `This workspace can hold at most ${target.maximumDataPoints} data points (maximumChannelsDataPoints).` };
      continue;
    }
    const id = randomUUID();
    inserts.set(p.externalId, { ...p.row, id, workspace_id: target.workspaceId, channel_id: target.channelId, dataset_id: target.datasetId, external_id: p.externalId });
    existingIds.set(p.externalId, id);
    room--;
    outcomes[p.at] = { status: 'created', id };
  }
  if (inserts.size) await trx('channel_datapoints').insert([...inserts.values()]);
  for (const field of changedOptions) await trx('channel_fields').where({ id: field.id }).update({ options: JSON.stringify(field.options) });
  return outcomes;
}
