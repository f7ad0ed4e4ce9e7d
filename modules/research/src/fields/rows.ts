import type { FieldObjectType, FieldType, ValueObjectType } from './rules/field-types.ts';
import type { NumberConfig } from './rules/number-config.ts';

/** Field config as stored: a number field's format, a select field's max selectable. */
export interface FieldConfig {
  number?: NumberConfig;
  maxSelectable?: number;
}

export interface FieldRow {
  id: string;
  workspace_id: string;
  project_id: string | null;
  object_type: FieldObjectType;
  type: FieldType;
  label: string;
  config: FieldConfig;
  rank: number;
  created_at: Date;
  updated_at: Date;
}

export interface FieldOptionRow {
  id: string;
  field_id: string;
  label: string;
  display_label: string | null;
  color: string;
  rank: number;
}

export interface FieldValueRow {
  field_id: string;
  object_type: ValueObjectType;
  object_id: string;
  value: unknown;
  updated_at: Date;
}

export interface FieldView {
  id: string;
  objectType: FieldObjectType;
  projectId: string | null;
  type: FieldType;
  label: string;
  rank: number;
  numberConfig: NumberConfig | null;
  /** As configured; the effective max depends on the option count (see Field.maxSelectable). */
  configuredMaxSelectable: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface FieldOptionView {
  id: string;
  fieldId: string;
  label: string;
  displayLabel: string | null;
  color: string;
  rank: number;
}

export interface FieldValueView {
  fieldId: string;
  objectType: ValueObjectType;
  objectId: string;
  value: unknown;
  updatedAt: Date;
}

export const fieldView = (r: FieldRow): FieldView => ({
  id: r.id,
  objectType: r.object_type,
  projectId: r.project_id,
  type: r.type,
  label: r.label,
  rank: r.rank,
  numberConfig: r.type === 'NUMBER' || r.type === 'ARR' ? (r.config.number ?? { format: 'number' }) : null,
  configuredMaxSelectable: r.config.maxSelectable ?? null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const optionView = (r: FieldOptionRow): FieldOptionView => ({
  id: r.id,
  fieldId: r.field_id,
  label: r.label,
  displayLabel: r.display_label,
  color: r.color,
  rank: r.rank,
});

export const valueView = (r: FieldValueRow): FieldValueView => ({
  fieldId: r.field_id,
  objectType: r.object_type,
  objectId: r.object_id,
  value: r.value,
  updatedAt: r.updated_at,
});
