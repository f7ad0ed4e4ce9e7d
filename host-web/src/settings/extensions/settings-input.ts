import type { PluginSettingField, PluginSettingInput, PluginSettingValue } from '../../api/operations.ts';

/** What the settings form holds: text for text, secret and project fields, a flag for booleans. */
export interface SettingsDraft {
  text: Record<string, string>;
  flag: Record<string, boolean>;
  /** Secrets the person chose to clear (sent as an empty text). */
  cleared: Record<string, boolean>;
}

/** The form's starting values: stored texts and flags; secrets always start empty (never sent back). */
export function draftFrom(
  fields: readonly PluginSettingField[],
  values: readonly PluginSettingValue[] = [],
): SettingsDraft {
  const byKey = new Map(values.map((v) => [v.key, v]));
  const draft: SettingsDraft = { text: {}, flag: {}, cleared: {} };
  for (const f of fields) {
    const v = byKey.get(f.key);
    if (f.kind === 'boolean') draft.flag[f.key] = v?.flag ?? false;
    else draft.text[f.key] = f.kind === 'secret' ? '' : (v?.text ?? '');
  }
  return draft;
}

/**
 * The mutation's `settings`: a secret left empty is left out so the stored one is kept, and a
 * cleared secret is sent as `text: ""`.
 */
export function settingsInput(fields: readonly PluginSettingField[], draft: SettingsDraft): PluginSettingInput[] {
  const out: PluginSettingInput[] = [];
  for (const f of fields) {
    if (f.kind === 'boolean') out.push({ key: f.key, flag: draft.flag[f.key] ?? false });
    else if (f.kind === 'secret') {
      const text = draft.text[f.key] ?? '';
      if (text) out.push({ key: f.key, text });
      else if (draft.cleared[f.key]) out.push({ key: f.key, text: '' });
    } else out.push({ key: f.key, text: (draft.text[f.key] ?? '').trim() });
  }
  return out;
}

/** Required fields the draft leaves empty (a secret already stored counts as filled unless cleared). */
export function missingRequired(
  fields: readonly PluginSettingField[],
  draft: SettingsDraft,
  values: readonly PluginSettingValue[] = [],
): PluginSettingField[] {
  const stored = new Map(values.map((v) => [v.key, v]));
  return fields.filter((f) => {
    if (!f.required || f.kind === 'boolean') return false;
    const text = (draft.text[f.key] ?? '').trim();
    if (text) return false;
    if (f.kind === 'secret') return draft.cleared[f.key] || !stored.get(f.key)?.isSet;
    return true;
  });
}
