import { describe, expect, it } from 'vitest';
import type { PluginSettingField, PluginSettingValue } from '../../api/operations.ts';
import { draftFrom, missingRequired, settingsInput } from './settings-input.ts';

const fields: PluginSettingField[] = [
  { key: 'channel', kind: 'text', label: 'Channel', description: null, required: true },
  { key: 'token', kind: 'secret', label: 'Bot token', description: null, required: true },
  { key: 'notify', kind: 'boolean', label: 'Notify', description: null, required: false },
  { key: 'project', kind: 'project', label: 'Project', description: null, required: false },
];
const stored: PluginSettingValue[] = [
  { key: 'channel', text: '#research', flag: null, isSet: true },
  { key: 'token', text: null, flag: null, isSet: true },
  { key: 'notify', text: null, flag: true, isSet: true },
];

describe('plugin settings input', () => {
  it('starts from stored values but never from a secret', () => {
    const d = draftFrom(fields, stored);
    expect(d.text).toEqual({ channel: '#research', token: '', project: '' });
    expect(d.flag).toEqual({ notify: true });
  });

  it('leaves an empty secret out so the stored one is kept', () => {
    const input = settingsInput(fields, draftFrom(fields, stored));
    expect(input.map((s) => s.key)).toEqual(['channel', 'notify', 'project']);
    expect(missingRequired(fields, draftFrom(fields, stored), stored)).toEqual([]);
  });

  it('sends a typed secret, and an empty text for a cleared one', () => {
    const d = draftFrom(fields, stored);
    d.text.token = 'xoxb-1';
    expect(settingsInput(fields, d)).toContainEqual({ key: 'token', text: 'xoxb-1' });
    d.text.token = '';
    d.cleared.token = true;
    expect(settingsInput(fields, d)).toContainEqual({ key: 'token', text: '' });
    expect(missingRequired(fields, d, stored).map((f) => f.key)).toEqual(['token']);
  });

  it('names required fields that are empty before installing', () => {
    const d = draftFrom(fields);
    expect(missingRequired(fields, d).map((f) => f.key)).toEqual(['channel', 'token']);
  });
});
