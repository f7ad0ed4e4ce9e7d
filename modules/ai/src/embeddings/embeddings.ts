import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { withTenant, type AiService, type JobDefinition } from '@fieldbook/core';
import { readableProjects, type Caller } from '../access.ts';

type EmbeddedType = 'highlight' | 'insight' | 'note';
export const EMBEDDING_BACKFILL_QUEUE = 'ai-embeddings-backfill';
/** Characters of an item embedded: enough for its gist, within every common model's context. */
const MAX_CHARS = 4000;
const BATCH = 64;

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length && i < b.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Runs work in a transaction scoped to the caller (a request context's `tx`). */
export type InTransaction = <T>(fn: (trx: Knex.Transaction) => Promise<T>) => Promise<T>;

/**
 * The items most similar in meaning to `question`, among those in projects the caller may read.
 * The stored vectors are read first and the transaction ends before the question is embedded:
 * the AI call checks the allowance and records usage with connections of its own.
 */
export async function nearestByEmbedding(
  tx: InTransaction,
  caller: Caller,
  ai: AiService,
  question: string,
  k: number,
): Promise<Array<{ type: EmbeddedType; id: string; similarity: number }>> {
  const model = ai.model?.embeddingModel;
  if (!model) return [];
  const rows = await tx(async (trx) => {
    const readable = [...(await readableProjects(trx, caller)).keys()];
    if (readable.length === 0) return [];
    return (await trx('ai_embeddings')
      .where({ workspace_id: caller.workspaceId, model })
      .whereIn('project_id', readable)
      .select('object_type', 'object_id', 'vector')) as Array<{
      object_type: EmbeddedType;
      object_id: string;
      vector: number[];
    }>;
  });
  if (rows.length === 0) return [];
  const [q] = (await ai.embed({ workspaceId: caller.workspaceId, userId: caller.userId, feature: 'ask' }, [question]))
    .vectors;
  return rows
    .map((r) => ({ type: r.object_type, id: r.object_id, similarity: cosine(q!, r.vector) }))
    .filter((r) => r.similarity > 0.2)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, k);
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * Embeds every highlight, note and insight of a workspace whose text changed since it was last
 * embedded with the configured model (or never was). The table is the only copy, so changing the
 * model and running this again rebuilds it. Answers how many items it embedded.
 */
export async function backfillEmbeddings(db: Knex, ai: AiService, workspaceId: string): Promise<number> {
  const model = ai.model?.embeddingModel;
  if (!model) return 0;
  const items = await withTenant(db, { workspaceId }, async (trx) => {
    const existing = new Map(
      (
        (await trx('ai_embeddings')
          .where({ workspace_id: workspaceId, model })
          .select('object_type', 'object_id', 'text_hash')) as Array<{
          object_type: string;
          object_id: string;
          text_hash: string;
        }>
      ).map((r) => [`${r.object_type}:${r.object_id}`, r.text_hash]),
    );
    const highlights = (await trx('highlights')
      .where({ workspace_id: workspaceId })
      .whereNull('deleted_at')
      .select('id', 'project_id', 'text')) as Array<{ id: string; project_id: string; text: string }>;
    const docs = async (table: 'notes' | 'insights') =>
      (await trx(table)
        .where({ workspace_id: workspaceId })
        .whereNull('deleted_at')
        .select('id', 'project_id', 'title', 'content_text')) as Array<{
        id: string;
        project_id: string;
        title: string;
        content_text: string;
      }>;
    const all: Array<{ type: EmbeddedType; id: string; projectId: string; text: string }> = [
      ...highlights.map((h) => ({ type: 'highlight' as const, id: h.id, projectId: h.project_id, text: h.text })),
      ...(await docs('notes')).map((n) => ({
        type: 'note' as const,
        id: n.id,
        projectId: n.project_id,
        text: `${n.title}\n${n.content_text}`,
      })),
      ...(await docs('insights')).map((n) => ({
        type: 'insight' as const,
        id: n.id,
        projectId: n.project_id,
        text: `${n.title}\n${n.content_text}`,
      })),
    ];
    return all
      .map((i) => ({ ...i, text: i.text.slice(0, MAX_CHARS) }))
      .filter((i) => i.text.trim() && existing.get(`${i.type}:${i.id}`) !== hash(i.text));
  });
  for (let i = 0; i < items.length; i += BATCH) {
    const batch = items.slice(i, i + BATCH);
    const { vectors } = await ai.embed(
      { workspaceId, userId: null, feature: 'ask' },
      batch.map((b) => b.text),
    );
    await withTenant(db, { workspaceId }, (trx) =>
      trx('ai_embeddings')
        .insert(
          batch.map((b, j) => ({
            workspace_id: workspaceId,
            object_type: b.type,
            object_id: b.id,
            project_id: b.projectId,
            model,
            text_hash: hash(b.text),
            vector: vectors[j],
            updated_at: trx.fn.now(),
          })),
        )
        .onConflict(['workspace_id', 'object_type', 'object_id'])
        .merge(),
    );
  }
  return items.length;
}

export function embeddingJobs(db: Knex, ai: AiService): JobDefinition[] {
  return [
    {
      queue: EMBEDDING_BACKFILL_QUEUE,
      handler: async (job) => {
        const { workspaceId } = job.data as { workspaceId: string };
        await backfillEmbeddings(db, ai, workspaceId);
      },
    },
  ];
}
