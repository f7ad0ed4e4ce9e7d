import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { checkFieldValue, FIELD_TYPES, type FieldType, type FieldValue } from '../fields/types.ts';
import { CHANNEL_LIMITS } from '../limits.ts';
import type { ImportedRecord } from '../sources/contract.ts';
import { countedInWorkspace } from './counts.ts';
import { peopleForEmails } from './people.ts';

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

/**
 * JSON for PostgreSQL. JSON.stringify writes a lone surrogate (half of a character, as a JSON
 * body can hold) as an escape PostgreSQL refuses; it becomes U+FFFD, as sending the text itself
 * would make it. Characters that are whole are never escaped, so any such escape is a lone one.
 */
function jsonText(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('\\ud') ? text.replace(/(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g, '$1\\ufffd') : text;
}

/** A data point's row as the batch's JSON document carries it. */
interface PointRow {
  external_id: string;
  external_url: string | null;
  import_url: string | null;
  content: string;
  created_at: string;
  raw: unknown;
  sentiment: string | null;
  fields: Record<string, FieldValue>;
  person_id: string | null;
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
  if (r.externalId.length > CHANNEL_LIMITS.externalId)
    return `externalId can be at most ${CHANNEL_LIMITS.externalId} characters long.`;
  if (typeof r.content !== 'string' || !r.content.trim()) return 'content is empty.';
  // Counted in characters, not UTF-16 units; a text no longer than the limit in units is within it.
  if (r.content.length > CHANNEL_LIMITS.content && [...r.content].length > CHANNEL_LIMITS.content)
    return `content can be at most ${CHANNEL_LIMITS.content} characters long.`;
  if (r.content.includes('\0')) return 'content contains a NUL character.';
  if (typeof r.createdAt !== 'string' || Number.isNaN(Date.parse(r.createdAt)))
    return 'createdAt must be a date in ISO 8601 form.';
  for (const key of ['externalUrl', 'importUrl'] as const) {
    const url = r[key];
    if (url && !isHttpUrl(url))
      return `${key} must be a web address starting with http:// or https://, of at most ${CHANNEL_LIMITS.url} characters.`;
  }
  if (r.sentiment && !SENTIMENTS.has(r.sentiment)) return 'sentiment must be positive, negative or mixed.';
  if (
    r.person?.email &&
    (r.person.email.length > CHANNEL_LIMITS.email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(r.person.email))
  )
    return `person.email must be an email address of at most ${CHANNEL_LIMITS.email} characters.`;
  return null;
}

/**
 * Writes records into a dataset: a record whose externalId the dataset already has updates that
 * data point, any other creates one. Each record fails alone with its reason (a bad value, the
 * data point limit); the others go in. Runs inside the caller's transaction.
 */
export async function writeRecords(
  trx: Knex.Transaction,
  target: WriteTarget,
  records: readonly ImportedRecord[],
): Promise<WriteOutcome[]> {
  const fields = new Map<string, FieldRow>();
  const readFields = async () =>
    (await trx('channel_fields')
      .where({ channel_id: target.channelId, workspace_id: target.workspaceId })
      .select('id', 'label', 'type', 'options')) as FieldRow[];
  for (const f of await readFields()) fields.set(f.label.toLowerCase(), f);
  const changedOptions = new Set<FieldRow>();
  // A new field or option is added by one writer of the channel at a time (batches of one import
  // are written side by side), on the fields as the writers before it left them: no option is
  // lost to a concurrent writer, and no two writers wait on each other's new fields.
  let fieldsLocked = false;
  const lockFields = async () => {
    if (fieldsLocked) return;
    fieldsLocked = true;
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`channel-fields:${target.channelId}`]);
    for (const f of await readFields()) {
      const known = fields.get(f.label.toLowerCase());
      if (known) known.options = f.options;
      else fields.set(f.label.toLowerCase(), f);
    }
  };
  let room = Infinity;
  if (target.maximumDataPoints !== null) {
    // One writer per workspace at a time, so concurrent imports cannot both take the last room.
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`channel-datapoints:${target.workspaceId}`]);
    room = target.maximumDataPoints - (await countedInWorkspace(trx, target.workspaceId));
  }

  const outcomes: WriteOutcome[] = [];
  const pending: Array<{ at: number; externalId: string; email: string | null; row: PointRow }> = [];
  const emails = new Map<string, string | null | undefined>();
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
      let checked = checkFieldValue(type, key, input);
      if (!checked.ok) {
        failed = checked.reason;
        break;
      }
      if (!field) {
        await lockFields();
        field = fields.get(key.toLowerCase());
      }
      if (field && field.type !== type) {
        // Another writer created the field meanwhile, with another type.
        checked = checkFieldValue(field.type, key, input);
        if (!checked.ok) {
          failed = checked.reason;
          break;
        }
      }
      if (!field) {
        const [row] = (await trx('channel_fields')
          .insert({
            id: randomUUID(),
            workspace_id: target.workspaceId,
            channel_id: target.channelId,
            label: key,
            type,
          })
          .onConflict(trx.raw('(channel_id, lower(label))'))
          .merge({ label: trx.raw('channel_fields.label') })
          .returning(['id', 'label', 'type', 'options'])) as FieldRow[];
        field = row!;
        fields.set(key.toLowerCase(), field);
      }
      if (checked.options) {
        for (const option of checked.options) {
          const has = (f: FieldRow) => f.options.some((o) => o.label.toLowerCase() === option.toLowerCase());
          if (has(field)) continue;
          if (!fieldsLocked) {
            await lockFields();
            if (has(field)) continue;
          }
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

    const email = record.person?.email ? record.person.email.toLowerCase() : null;
    if (email && !emails.has(email)) emails.set(email, record.person?.name);
    pending.push({
      at: outcomes.length,
      externalId: record.externalId,
      email,
      row: {
        external_id: record.externalId,
        external_url: record.externalUrl ?? null,
        import_url: record.importUrl ?? null,
        content: record.content,
        created_at: new Date(record.createdAt).toISOString(),
        raw: record.raw ?? null,
        sentiment: record.sentiment ?? null,
        fields: values,
        person_id: null,
      },
    });
    outcomes.push({ status: 'failed', reason: 'not written' });
  }
  if (!pending.length) {
    for (const field of changedOptions)
      await trx('channel_fields')
        .where({ id: field.id })
        .update({ options: JSON.stringify(field.options) });
    return outcomes;
  }

  // People are matched (or created) for all the batch's addresses at once.
  const people = await peopleForEmails(trx, target.workspaceId, target.userId, emails);

  // With a cap, the records the dataset does not hold yet are the ones that need room.
  const known = new Set<string>();
  if (room !== Infinity) {
    const { rows } = await trx.raw<{ rows: Array<{ external_id: string }> }>(
      'select external_id from channel_datapoints where dataset_id = ? and external_id = any(?::text[])',
      [target.datasetId, [...new Set(pending.map((p) => p.externalId))]],
    );
    for (const r of rows) known.add(r.external_id);
  }

  // One row per external id: the same id twice in a batch is an update of the earlier record.
  const slot = new Map<string, number>();
  const batch: PointRow[] = [];
  const later: Array<{ at: number; externalId: string }> = [];
  const first: Array<{ at: number; externalId: string }> = [];
  for (const p of pending) {
    const row = p.row;
    row.person_id = p.email ? (people.get(p.email) ?? null) : null;
    const at = slot.get(p.externalId);
    if (at !== undefined) {
      batch[at] = row;
      later.push(p);
      continue;
    }
    if (!known.has(p.externalId)) {
      if (room <= 0) {
        outcomes[p.at] = {
          status: 'failed',
          reason: `This workspace can hold at most ${target.maximumDataPoints} data points (maximumChannelsDataPoints).`,
        };
        continue;
      }
      room--;
    }
    slot.set(p.externalId, batch.length);
    batch.push(row);
    first.push(p);
  }

  // The batch goes in as one statement over one JSON document (one parameter, serialized natively
  // instead of escaped element by element): new external ids are inserted, known ones
  // updated in place (unique per dataset and external id), and the search vector, the trigram
  // index and the daily counters follow in the same statement.
  const { rows } = !first.length
    ? { rows: [] }
    : await trx.raw<{ rows: Array<{ id: string; external_id: string; created: boolean }> }>(
        `insert into channel_datapoints as d (workspace_id, channel_id, dataset_id, source, external_id, external_url, import_url, content, created_at, raw, sentiment, fields, person_id)
         select ?, ?, ?, ?, x.external_id, x.external_url, x.import_url, x.content, x.created_at, x.raw, x.sentiment, x.fields, x.person_id
         from json_to_recordset(?::json)
           as x(external_id text, external_url text, import_url text, content text, created_at timestamptz, raw jsonb, sentiment text, fields jsonb, person_id uuid)
         on conflict (dataset_id, external_id) do update set
           source = excluded.source, external_url = excluded.external_url, import_url = excluded.import_url, content = excluded.content,
           created_at = excluded.created_at, raw = excluded.raw, sentiment = excluded.sentiment, fields = excluded.fields,
           person_id = excluded.person_id, updated_at = now()
         returning d.id, d.external_id, (d.xmax = 0) as created`,
        [target.workspaceId, target.channelId, target.datasetId, target.source, jsonText(batch)],
      );
  const written = new Map(rows.map((r) => [r.external_id, r]));
  for (const p of first) {
    const r = written.get(p.externalId)!;
    outcomes[p.at] = { status: r.created ? 'created' : 'updated', id: r.id };
  }
  for (const p of later) outcomes[p.at] = { status: 'updated', id: written.get(p.externalId)!.id };
  for (const field of changedOptions)
    await trx('channel_fields')
      .where({ id: field.id })
      .update({ options: JSON.stringify(field.options) });
  return outcomes;
}
