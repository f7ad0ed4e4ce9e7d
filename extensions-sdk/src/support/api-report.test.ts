import { describe, expect, it } from 'vitest';
import {
  breakingWithoutMajor,
  compareSurfaces,
  formatReport,
  parseReport,
  readApiSurface,
  readCheckedInReport,
  REPORT_COMMAND,
  type ApiSurface,
} from './api-report.ts';

describe("the SDK's API report", () => {
  it('matches the public surface of every entry point, and the version in its header', () => {
    const report = readCheckedInReport();
    const now = readApiSurface();
    const refusal = breakingWithoutMajor(report, now);
    if (refusal) expect.fail(`${refusal}\nThen run \`${REPORT_COMMAND}\`.`);
    const { removed, changed, added } = compareSurfaces(report, now);
    const differences = [
      ...removed.map((k) => `removed ${k}`),
      ...changed.map((k) => `changed ${k}`),
      ...added.map((k) => `added ${k}`),
    ];
    if (report.version !== now.version) differences.push(`version ${report.version} → ${now.version}`);
    if (differences.length)
      expect.fail(
        `The SDK's public surface is not the one in extensions-sdk/api-report.md; run \`${REPORT_COMMAND}\` and commit it:\n${differences.join('\n')}`,
      );
    expect(Object.keys(now.entries)).toEqual(['.', './server', './web', './testing', './rsbuild']);
    expect(now.entries['./server']).toContain(
      'function defineAction<Ctx, Params extends z.ZodType>(action: AutomationAction<Ctx, Params>): AutomationAction<Ctx, Params>',
    );
  }, 120_000);
});

describe('comparing surfaces', () => {
  const v1: ApiSurface = {
    version: '1.2.0',
    entries: {
      './server': [
        'function definePlugin(declaration: PluginDeclaration): PluginDefinition',
        'interface NoteDraft',
        '  projectId: string',
        '  title: string',
        "  'a.b/v1': { x: string; }",
        'type Scope = "a" | "b"',
      ],
      './web': ['function Slot(props: SlotProps): ReactNode'],
    },
  };
  const edit = (version: string, server: string[], web = v1.entries['./web']!): ApiSurface => ({
    version,
    entries: { './server': server, './web': web },
  });

  it('reads a report back as it was written', () => {
    expect(parseReport(formatReport(v1))).toEqual(v1);
  });

  it('finds removed, changed and added declarations and members', () => {
    const after = edit(
      '2.0.0',
      [
        'function definePlugin(declaration: PluginDeclaration, more: boolean): PluginDefinition',
        'interface NoteDraft',
        '  projectId: string',
        "  'a.b/v1': { x: number; }",
        '  text?: string',
        'type Scope = "a" | "b"',
      ],
      [],
    );
    expect(compareSurfaces(v1, after)).toEqual({
      removed: ['./server NoteDraft.title', './web Slot'],
      changed: ['./server definePlugin', "./server NoteDraft.'a.b/v1'"],
      added: ['./server NoteDraft.text'],
    });
  });

  it('asks for a new major version when a declaration was removed or changed, not when one was added', () => {
    const removed = edit(
      '1.3.0',
      v1.entries['./server']!.filter((l) => l !== '  title: string'),
    );
    expect(breakingWithoutMajor(v1, removed)).toBe(
      'These break plugins built on SDK 1.2.0 and need a new major version (SDK_VERSION 2.0.0 in extensions-sdk/src/index.ts):\n  - removed ./server NoteDraft.title',
    );
    expect(breakingWithoutMajor(v1, { ...removed, version: '2.0.0' })).toBeNull();
    const changed = edit(
      '1.2.0',
      v1.entries['./server']!.map((l) => l.replace('"a" | "b"', '"a"')),
    );
    expect(breakingWithoutMajor(v1, changed)).toMatch(/changed \.\/server Scope$/);
    expect(breakingWithoutMajor(v1, edit('1.2.0', [...v1.entries['./server']!, 'const EXTRA: 1']))).toBeNull();
  });
});
