import { describe, expect, it } from 'vitest';
import { parsePluginManifest } from './index.ts';
import { definePlugin } from './server/index.ts';

const valid = { id: 'slack', version: '1.2.0', sdk: '^1', name: 'Slack', permissions: ['notes:write', 'egress:slack.com'] };

describe('plugin manifest', () => {
  it('accepts a well-formed manifest and fills defaults', () => {
    expect(parsePluginManifest({ id: 'zoom', version: '0.1.0', sdk: '^1', name: 'Zoom' }).permissions).toEqual([]);
    expect(definePlugin(valid).manifest.id).toBe('slack');
  });

  it('names every problem by its field', () => {
    expect(() => parsePluginManifest({ ...valid, id: 'Bad Id', version: 'one' })).toThrow(/id: A plugin id[\s\S]*version: The version must be/);
    expect(() => parsePluginManifest({ ...valid, permissions: ['everything'] })).toThrow(/permissions\.0/);
    expect(() => parsePluginManifest({ ...valid, permissions: ['notes:delete'] })).toThrow(/permissions\.0: Unknown permission/);
    expect(() => definePlugin({ ...valid, sdk: '^2' })).toThrow(/needs SDK \^2; this Fieldbook has SDK 1\./);
    expect(() => definePlugin({ ...valid, sdk: 'soon' })).toThrow(/sdk: "soon" is not a version range/);
    expect(() => parsePluginManifest({ ...valid, web: { entry: 'https://x/mf-manifest.json', exposes: 'extension' } })).toThrow(/web\.exposes/);
  });
});
