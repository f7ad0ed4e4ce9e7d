import DataLoader from 'dataloader';
import { readProvenances, type Provenance, type RequestContext } from '@fieldbook/core';

export type MakerKind = 'PERSON' | 'AI' | 'AGENT';

export interface Maker {
  kind: MakerKind;
  personId: string | null;
  model: string | null;
  label: string | null;
}

/** Items whose makers are asked for: the object types AI provenance is recorded under. */
export type MadeItemType = 'NOTE' | 'INSIGHT' | 'HIGHLIGHT';

export const WRITTEN_BY_AI = 'Written by AI';

/**
 * An item AI or an agent made has a provenance record (core/src/ai/provenance.ts), written where
 * it is made: agents' notes, translations, AI steps' insights, accepted highlight suggestions.
 * Any other item a person made.
 */
export function makerOf(p: Provenance | undefined, createdBy: string | null): Maker {
  if (!p) return { kind: 'PERSON', personId: createdBy, model: null, label: null };
  return {
    kind: p.madeBy ?? 'AI',
    personId: p.createdBy ?? createdBy,
    model: p.model === 'local' ? null : p.model,
    label: WRITTEN_BY_AI,
  };
}

const perRequest = new WeakMap<RequestContext, Map<MadeItemType, DataLoader<string, Provenance | undefined>>>();

/** One read of provenance per item type and request, however many items a list resolves. */
export function provenanceLoader(
  ctx: RequestContext,
  workspaceId: string,
  type: MadeItemType,
): DataLoader<string, Provenance | undefined> {
  let byType = perRequest.get(ctx);
  if (!byType) perRequest.set(ctx, (byType = new Map()));
  let loader = byType.get(type);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const found = await ctx.tx((trx) => readProvenances(trx, workspaceId, type, ids));
      return ids.map((id) => found.get(id));
    });
    byType.set(type, loader);
  }
  return loader;
}
