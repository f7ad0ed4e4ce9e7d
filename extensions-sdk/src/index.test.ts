import { describe, expect, it } from 'vitest';
import { parsePluginManifest } from './index.ts';
import { definePlugin } from './server/index.ts';

const valid = {
  id: 'slack',
  version: '1.2.0',
  sdk: '^1',
  name: 'Slack',
  permissions: ['notes:write', 'egress:slack.com'],
};

describe('plugin manifest', () => {
  it('accepts a well-formed manifest and fills defaults', () => {
    expect(parsePluginManifest({ id: 'zoom', version: '0.1.0', sdk: '^1', name: 'Zoom' }).permissions).toEqual([]);
    expect(definePlugin(valid).manifest.id).toBe('slack');
  });

  it('names every problem by its field', () => {
    expect(() => parsePluginManifest({ ...valid, id: 'Bad Id', version: 'one' })).toThrow(
      /id: A plugin id[\s\S]*version: The version must be/,
    );
    expect(() => parsePluginManifest({ ...valid, permissions: ['everything'] })).toThrow(/permissions\.0/);
    expect(() => parsePluginManifest({ ...valid, permissions: ['notes:delete'] })).toThrow(
      /permissions\.0: Unknown permission/,
    );
    expect(() => definePlugin({ ...valid, sdk: '^2' })).toThrow(/needs SDK \^2; this Fieldbook has SDK 1\./);
    expect(() => definePlugin({ ...valid, sdk: 'soon' })).toThrow(/sdk: "soon" is not a version range/);
    expect(() =>
      parsePluginManifest({ ...valid, web: { entry: 'https://x/mf-manifest.json', exposes: 'extension' } }),
    ).toThrow(/web\.exposes/);
  });

  it('refuses egress to internal addresses and local names, saying they can never be reached', () => {
    for (const host of [
      '127.0.0.1',
      '10.0.0.5',
      '172.20.1.1',
      '192.168.1.10',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      'localhost',
      'api.localhost',
      'printer.local',
      'metadata.google.internal',
    ]) {
      expect(() => parsePluginManifest({ ...valid, permissions: [`egress:${host}`] }), host).toThrow(
        new RegExp(
          `permissions\\.0: ${host.replace(/\./g, '\\.')} (is an internal address|names this machine)[^\\n]*can never be reached`,
        ),
      );
    }
    for (const host of ['8.8.8.8', '172.32.0.1', 'api.linear.app', 'local.example.com']) {
      expect(parsePluginManifest({ ...valid, permissions: [`egress:${host}`] }).permissions, host).toEqual([
        `egress:${host}`,
      ]);
    }
  });

  it('lets a web part say which slots it fills, so the app loads it only where one is drawn', () => {
    const web = parsePluginManifest({
      ...valid,
      web: { slots: ['project.settings.panel/v1', 'note.toolbar.action/v1'] },
    }).web;
    expect(web?.slots).toEqual(['project.settings.panel/v1', 'note.toolbar.action/v1']);
    expect(web?.entry).toBeUndefined(); // a bundled plugin's built web part is found by its package
    expect(() => parsePluginManifest({ ...valid, web: { slots: ['Project settings'] } })).toThrow(
      /web\.slots\.0: A slot is named like/,
    );
  });
});

describe('the SDK version', () => {
  it('is one version: the package, SDK_VERSION, and what the app, core, modules and plugins depend on', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { SDK_VERSION } = await import('./index.ts');
    const root = join(import.meta.dirname, '..', '..');
    const read = (file: string) =>
      JSON.parse(readFileSync(join(root, file), 'utf8')) as { version: string; dependencies?: Record<string, string> };
    expect(read('extensions-sdk/package.json').version).toBe(SDK_VERSION);
    const dependents = [
      'core',
      'host-web',
      ...readdirSync(join(root, 'modules')).map((m) => `modules/${m}`),
      ...readdirSync(join(root, 'plugins')).map((p) => `plugins/${p}`),
    ];
    for (const dir of dependents) {
      const range = read(`${dir}/package.json`).dependencies?.['@fieldbook/extensions-sdk'];
      if (range) expect(range, dir).toBe(SDK_VERSION);
    }
  });
});
