import type { Scalar } from '../../filters/index.ts';
import type { SearchDocument } from '../engine.ts';
import { toMillis } from './filter-by.ts';
import {
  FILLED,
  SYSTEM_ATTRIBUTE_KINDS,
  TITLE_SORT,
  customField,
  customFieldId,
  customFilledName,
  systemAttributes,
  systemField,
} from './schema.ts';

export type TypesenseValue = string | number | boolean | string[];
export type TypesenseDocument = Record<string, TypesenseValue> & { id: string };

/** Lower case without accents: how titles sort, and how the filter model compares text. */
export const sortKey = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

type Value = Scalar | string[] | null | undefined;

const isUnset = (value: Value): boolean =>
  value === null ||
  value === undefined ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/** A highlight has no title of its own: its hit shows the start of its text. */
export const displayTitle = (doc: Pick<SearchDocument, 'title' | 'content'>): string =>
  doc.title !== '' ? doc.title : doc.content.slice(0, 200);

/** A search document as Typesense stores it (see schema.ts for the layout). */
export function toTypesenseDocument(doc: SearchDocument): TypesenseDocument {
  const out: TypesenseDocument = {
    id: doc.id.toLowerCase(),
    workspaceId: doc.workspaceId.toLowerCase(),
    title: displayTitle(doc),
    [TITLE_SORT]: sortKey(doc.title),
  };
  if (doc.projectId !== null) out.projectId = doc.projectId.toLowerCase();
  if (doc.projectTitle !== null) out.projectTitle = doc.projectTitle;
  const filled: string[] = [];
  const top: Record<string, Value> = {
    id: doc.id,
    projectId: doc.projectId,
    title: doc.title,
    content: doc.content,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };

  for (const attribute of systemAttributes(doc.type)) {
    const value = attribute in doc.attributes ? doc.attributes[attribute] : top[attribute];
    if (isUnset(value)) continue;
    const stored = systemValue(SYSTEM_ATTRIBUTE_KINDS[attribute]!, value!);
    if (stored === null) continue;
    out[systemField(attribute)] = stored;
    filled.push(attribute);
  }
  // Searched text the type's filters do not name (a highlight's text is its content).
  if (out.content === undefined && doc.content !== '') out.content = doc.content;

  for (const [attribute, value] of Object.entries(doc.attributes)) {
    const fieldId = customFieldId(attribute);
    if (fieldId === null || isUnset(value)) continue;
    Object.assign(out, customValues(fieldId, value!));
    filled.push(customFilledName(fieldId));
  }
  out[FILLED] = filled;
  return out;
}

function systemValue(kind: string, value: Scalar | string[]): TypesenseValue | null {
  switch (kind) {
    case 'id':
      return typeof value === 'string' ? value.toLowerCase() : null;
    case 'ids':
      return Array.isArray(value) ? value.map((v) => v.toLowerCase()) : null;
    case 'time':
      return typeof value === 'string' ? toMillis(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    default:
      return typeof value === 'string' ? value : null;
  }
}

function customValues(fieldId: string, value: Scalar | string[]): Record<string, TypesenseValue> {
  const f = (suffix: Parameters<typeof customField>[1]): string => customField(fieldId, suffix);
  if (Array.isArray(value)) return { [f('l')]: value.map((v) => v.toLowerCase()) };
  if (typeof value === 'number') return { [f('n')]: value, [f('o')]: value };
  if (typeof value === 'boolean') return { [f('b')]: value, [f('o')]: value ? 1 : 0 };
  const ms = toMillis(value);
  return ms === null ? { [f('s')]: value } : { [f('s')]: value, [f('t')]: ms, [f('o')]: ms };
}
