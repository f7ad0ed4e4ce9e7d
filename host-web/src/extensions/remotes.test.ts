import { describe, expect, it } from 'vitest';
import type { PluginRemote } from '../api/operations.ts';
import { remotesFor } from './remotes.ts';

const remote = (name: string, slots: string[] | null): PluginRemote => ({
  name,
  entry: `/plugins/${name}/web/mf-manifest.json`,
  exposedModule: './extension',
  slots,
});
const slack = remote('slack', ['project.settings.panel/v1', 'note.toolbar.action/v1']);
const drive = remote('drive', ['project.settings.panel/v1']);
const legacy = remote('legacy', null);

describe('which plugin web parts load where', () => {
  it('loads a web part for a slot it fills, and never for one it does not', () => {
    expect(remotesFor([slack, drive], 'project.settings.panel/v1').map((r) => r.name)).toEqual(['slack', 'drive']);
    expect(remotesFor([slack, drive], 'note.toolbar.action/v1').map((r) => r.name)).toEqual(['slack']);
    expect(remotesFor([slack, drive], 'home.card/v1')).toEqual([]);
  });

  it('loads with the workspace app only web parts that did not say where they draw', () => {
    expect(remotesFor([slack, drive, legacy], null).map((r) => r.name)).toEqual(['legacy']);
    // Such a part may fill any slot, so every slot asks for it too (it loads once).
    expect(remotesFor([slack, legacy], 'home.card/v1').map((r) => r.name)).toEqual(['legacy']);
  });
});
