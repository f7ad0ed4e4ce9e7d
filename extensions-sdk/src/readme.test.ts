/**
 * The README's code blocks are a plugin: every block naming a `file=` is written into a folder
 * inside the repository (so the SDK and zod resolve as for a plugin), type-checked, loaded, and its
 * test block runs here against a real Fieldbook. A block tagged `pending=<feature>` documents a
 * feature not in the SDK yet and is left out while its tag is in PENDING.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePluginManifest } from './index.ts';
import { repoRoot, typeErrors } from './support/typecheck.ts';

/** Features documented ahead of the SDK, by their blocks' `pending=` tag; none at present. */
const PENDING = new Set<string>();

interface Block {
  lang: string;
  file: string | null;
  pending: string | null;
  code: string;
}

function readmeBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1]!,
    file: /\bfile=(\S+)/.exec(m[2]!)?.[1] ?? null,
    pending: /\bpending=(\S+)/.exec(m[2]!)?.[1] ?? null,
    code: m[3]!,
  }));
}

const blocks = readmeBlocks(readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8'));
const checked = blocks.filter((b) => b.file && !(b.pending && PENDING.has(b.pending)));
// Under the repository (node_modules resolve as for a plugin in it) and out of git and the test globs.
const pluginDir = join(repoRoot, 'tests', '.artifacts', `readme-plugin-${process.pid}`);
rmSync(pluginDir, { recursive: true, force: true });
const files = new Map<string, string>();
for (const block of checked) files.set(block.file!, (files.get(block.file!) ?? '') + block.code);
for (const [file, code] of files) {
  mkdirSync(dirname(join(pluginDir, file)), { recursive: true });
  writeFileSync(join(pluginDir, file), code);
}

afterAll(() => rmSync(pluginDir, { recursive: true, force: true }));

describe('the README', () => {
  it('has a block for every part of a plugin, and a pending block for each feature named in PENDING', () => {
    expect([...files.keys()]).toEqual(
      expect.arrayContaining([
        'package.json',
        'rsbuild.config.ts',
        'server/acme-feedback.test.ts',
        'server/index.ts',
        'server/installation-webhook.ts',
        'server/reply-action.ts',
        'web/index.tsx',
        'web/pages-example.tsx',
        'web/panels.tsx',
      ]),
    );
    // A block whose tag is not in PENDING is compiled like the others; a tag left in PENDING with no block is stale.
    for (const feature of PENDING)
      expect(
        blocks.some((b) => b.pending === feature),
        `a README block tagged pending=${feature}`,
      ).toBe(true);
    // A TypeScript block that is not written anywhere would go unchecked.
    expect(blocks.filter((b) => ['ts', 'tsx', 'json'].includes(b.lang) && !b.file)).toEqual([]);
  });

  it('compiles as a plugin: server, web part, build configuration and test', () => {
    const sources = [...files.keys()].filter((f) => /\.tsx?$/.test(f)).map((f) => join(pluginDir, f));
    expect(typeErrors(sources)).toEqual([]);
  }, 180_000);

  it('loads through definePlugin from the entry its package.json names', async () => {
    const pkg = JSON.parse(files.get('package.json')!) as { fieldbook: { server: string; web: string } };
    const entry = (await import(pathToFileURL(join(pluginDir, pkg.fieldbook.server)).href)) as {
      default: { manifest: unknown; server: { actions?: unknown[] } };
    };
    expect(parsePluginManifest(entry.default.manifest)).toMatchObject({
      id: 'acme-feedback',
      version: '1.0.0',
      sdk: '^1',
    });
    expect(entry.default.server.actions).toHaveLength(1);
  });
});

// The README's own test: its plugin, its webhook and its action, through createTestHost.
await import(pathToFileURL(join(pluginDir, 'server', 'acme-feedback.test.ts')).href);
