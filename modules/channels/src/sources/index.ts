import { apiSource } from './api.ts';
import type { ImportSource, SourceKind } from './contract.ts';
import { csvSource } from './csv/source.ts';

export * from './contract.ts';

/** The sources built into the channels module; provider sources join from plugins. */
export const BUILT_IN_SOURCES: Partial<Record<SourceKind, ImportSource>> = { CSV: csvSource, API: apiSource };

export function sourceOf(kind: string): ImportSource | null {
  return BUILT_IN_SOURCES[kind as SourceKind] ?? null;
}
