import type { Knex } from 'knex';

/** What made an AI-made object: which model, where, from which prompt and which inputs. */
export interface Provenance {
  objectType: string;
  objectId: string;
  /** The model name, or `local` for a summary made without a model. */
  model: string;
  /** Host of the endpoint that answered; null when made locally. */
  endpointHost: string | null;
  promptVersion: string;
  inputIds: string[];
  /** How many inputs of each type (`{ note: 3 }`), for "from 3 notes". */
  inputTypes: Record<string, number>;
  promptTokens: number;
  completionTokens: number;
  createdBy: string | null;
  createdAt: Date;
  /** AI on a person's request (a step, an accepted suggestion, a translation), or an agent. AI when not given. */
  madeBy?: ProvenanceMaker;
}

export type ProvenanceMaker = 'AI' | 'AGENT';

interface ProvenanceRow {
  object_type: string;
  object_id: string;
  model: string;
  endpoint_host: string | null;
  prompt_version: string;
  input_ids: string[];
  input_types: Record<string, number>;
  prompt_tokens: number;
  completion_tokens: number;
  created_by: string | null;
  created_at: Date;
  made_by: ProvenanceMaker;
}

const provenanceOf = (r: ProvenanceRow): Provenance => ({
  objectType: r.object_type,
  objectId: r.object_id,
  model: r.model,
  endpointHost: r.endpoint_host,
  promptVersion: r.prompt_version,
  inputIds: r.input_ids,
  inputTypes: r.input_types,
  promptTokens: r.prompt_tokens,
  completionTokens: r.completion_tokens,
  createdBy: r.created_by,
  createdAt: r.created_at,
  madeBy: r.made_by,
});

export async function recordProvenance(
  trx: Knex.Transaction,
  workspaceId: string,
  p: Omit<Provenance, 'createdAt'>,
): Promise<void> {
  await trx('ai_provenance')
    .insert({
      workspace_id: workspaceId,
      object_type: p.objectType,
      object_id: p.objectId,
      model: p.model,
      endpoint_host: p.endpointHost,
      prompt_version: p.promptVersion,
      input_ids: p.inputIds,
      input_types: JSON.stringify(p.inputTypes),
      prompt_tokens: p.promptTokens,
      completion_tokens: p.completionTokens,
      created_by: p.createdBy,
      created_at: trx.fn.now(),
      made_by: p.madeBy ?? 'AI',
    })
    .onConflict(['workspace_id', 'object_type', 'object_id'])
    .merge();
}

export async function readProvenance(
  trx: Knex.Transaction,
  workspaceId: string,
  objectType: string,
  objectId: string,
): Promise<Provenance | null> {
  const r = (await trx('ai_provenance')
    .where({ workspace_id: workspaceId, object_type: objectType, object_id: objectId })
    .first()) as ProvenanceRow | undefined;
  return r ? provenanceOf(r) : null;
}

/** The provenance of each of `objectIds` that AI made, by id (one read for a list). */
export async function readProvenances(
  trx: Knex.Transaction,
  workspaceId: string,
  objectType: string,
  objectIds: readonly string[],
): Promise<Map<string, Provenance>> {
  if (!objectIds.length) return new Map();
  const rows = (await trx('ai_provenance')
    .where({ workspace_id: workspaceId, object_type: objectType })
    .whereIn('object_id', objectIds)) as ProvenanceRow[];
  return new Map(rows.map((r) => [r.object_id, provenanceOf(r)]));
}

/** "Written by AI (gpt-4o-mini) from 3 notes", or the local equivalent. */
export function provenanceLabel(p: Pick<Provenance, 'model' | 'inputTypes'>): string {
  const parts = Object.entries(p.inputTypes)
    .filter(([, n]) => n > 0)
    .map(([type, n]) => `${n} ${type}${n === 1 ? '' : 's'}`);
  const from = parts.length > 0 ? ` from ${parts.join(', ')}` : '';
  return p.model === 'local' ? `Local summary (no AI model configured)${from}` : `Written by AI (${p.model})${from}`;
}
