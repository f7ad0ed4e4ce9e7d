/**
 * The SDK's API report: every declaration each entry point exports, printed as the compiler sees
 * it (comments left out, one line each, an interface's or class's members one by one). The report
 * is checked in (extensions-sdk/api-report.md); its test fails when the surface and the report
 * differ, and a removed or changed declaration is allowed only with a new major version.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { compilerOptions, repoRoot } from './typecheck.ts';

/** The package's entry points and the source each one is (package.json `exports`). */
export const ENTRY_POINTS = {
  '.': 'src/index.ts',
  './server': 'src/server/index.ts',
  './web': 'src/web/index.ts',
  './testing': 'src/testing/index.ts',
  './rsbuild': 'src/build/rsbuild.ts',
} as const;

export const SDK_DIR = join(repoRoot, 'extensions-sdk');
export const REPORT_PATH = join(SDK_DIR, 'api-report.md');
/** The command that writes the report again; the test's failures name it. */
export const REPORT_COMMAND = 'npm run api-report -w @fieldbook/extensions-sdk';

export interface ApiSurface {
  version: string;
  /** Per entry point, its lines: a declaration, then its members indented by two spaces. */
  entries: Record<string, string[]>;
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
const oneLine = (text: string): string =>
  text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/;$/, '')
    .trim();
const NO_TRUNCATION = ts.TypeFormatFlags.NoTruncation;

/** `import("/…/node_modules/@types/react/index")` → `import("react")`: the report names packages, never this machine's paths. */
const portable = (text: string): string =>
  text.replace(/import\("([^"]+)"\)/g, (_m, path: string) => {
    const inPackage = /\/node_modules\/(?:@types\/)?(.+?)(?:\/index)?(?:\.d\.ts)?$/.exec(path)?.[1];
    return `import("${inPackage ?? (path.startsWith(repoRoot) ? path.slice(repoRoot.length + 1) : path)}")`;
  });

function print(node: ts.Node, file: ts.SourceFile): string {
  return oneLine(printer.printNode(ts.EmitHint.Unspecified, node, file));
}

const isPublicMember = (m: ts.ClassElement): boolean =>
  !ts.getCombinedModifierFlags(m as ts.Declaration) ||
  (!(ts.getCombinedModifierFlags(m as ts.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) &&
    !(m.name && ts.isPrivateIdentifier(m.name)));

/** The lines of one exported declaration, under the name it is exported as. */
function linesOf(name: string, decl: ts.Declaration, checker: ts.TypeChecker): string[] {
  const file = decl.getSourceFile();
  if (ts.isInterfaceDeclaration(decl)) {
    const head = print(
      ts.factory.updateInterfaceDeclaration(decl, undefined, decl.name, decl.typeParameters, decl.heritageClauses, []),
      file,
    ).replace(/\s*\{\s*\}$/, '');
    return [head.replace(/^interface \w+/, `interface ${name}`), ...decl.members.map((m) => `  ${print(m, file)}`)];
  }
  if (ts.isClassDeclaration(decl)) {
    const head = print(
      ts.factory.updateClassDeclaration(decl, undefined, decl.name, decl.typeParameters, decl.heritageClauses, []),
      file,
    ).replace(/\s*\{\s*\}$/, '');
    const members = decl.members.filter(isPublicMember).map((m) => {
      if (ts.isConstructorDeclaration(m))
        return `  ${print(ts.factory.updateConstructorDeclaration(m, m.modifiers, m.parameters, undefined), file)}`;
      if (ts.isMethodDeclaration(m))
        return `  ${print(ts.factory.updateMethodDeclaration(m, m.modifiers, m.asteriskToken, m.name, m.questionToken, m.typeParameters, m.parameters, m.type, undefined), file)}`;
      return `  ${print(m, file)}`;
    });
    return [head.replace(/^class \w+/, `class ${name}`), ...members];
  }
  if (ts.isFunctionDeclaration(decl)) {
    const signature = checker.getSignatureFromDeclaration(decl);
    const returns =
      decl.type ??
      (signature &&
        checker.typeToTypeNode(checker.getReturnTypeOfSignature(signature), decl, ts.NodeBuilderFlags.NoTruncation));
    return [
      print(
        ts.factory.updateFunctionDeclaration(
          decl,
          undefined,
          decl.asteriskToken,
          ts.factory.createIdentifier(name),
          decl.typeParameters,
          decl.parameters,
          returns,
          undefined,
        ),
        file,
      )
        .replace(/^/, 'function ')
        .replace(/^function function /, 'function '),
    ];
  }
  if (ts.isTypeAliasDeclaration(decl))
    return [
      print(
        ts.factory.updateTypeAliasDeclaration(
          decl,
          undefined,
          ts.factory.createIdentifier(name),
          decl.typeParameters,
          decl.type,
        ),
        file,
      ),
    ];
  if (ts.isVariableDeclaration(decl)) {
    const type = decl.type
      ? print(decl.type, file)
      : checker.typeToString(checker.getTypeAtLocation(decl), decl, NO_TRUNCATION);
    return [`const ${name}: ${portable(oneLine(type))}`];
  }
  return [`${ts.SyntaxKind[decl.kind]} ${name}`];
}

/** Reads the public surface from the sources and the version from SDK_VERSION. */
export function readApiSurface(): ApiSurface {
  const roots = Object.values(ENTRY_POINTS).map((f) => join(SDK_DIR, f));
  const program = ts.createProgram({ rootNames: roots, options: { ...compilerOptions(), noEmit: true } });
  const checker = program.getTypeChecker();
  const entries: Record<string, string[]> = {};
  let version: string | null = null;
  for (const [entry, path] of Object.entries(ENTRY_POINTS)) {
    const file = program.getSourceFile(join(SDK_DIR, path));
    const moduleSymbol = file && checker.getSymbolAtLocation(file);
    if (!moduleSymbol) throw new Error(`No module at ${path}.`);
    // Code-unit order, not the locale's: the report must not change with the machine that writes it.
    const exported = checker
      .getExportsOfModule(moduleSymbol)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const lines: string[] = [];
    for (const symbol of exported) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      for (const decl of target.declarations ?? []) {
        lines.push(...linesOf(symbol.name, decl, checker));
        if (
          symbol.name === 'SDK_VERSION' &&
          ts.isVariableDeclaration(decl) &&
          decl.initializer &&
          ts.isStringLiteral(decl.initializer)
        )
          version = decl.initializer.text;
      }
    }
    entries[entry] = lines;
  }
  if (!version) throw new Error('SDK_VERSION is not a string constant in src/index.ts.');
  return { version, entries };
}

/** The report's text: a header with the version, then each entry point's declarations. */
export function formatReport(surface: ApiSurface): string {
  const parts = [
    '# API report of @fieldbook/extensions-sdk',
    '',
    `SDK version: ${surface.version}`,
    '',
    `Every declaration each entry point exports, as plugins see it. Written by \`${REPORT_COMMAND}\`;`,
    "the SDK's tests fail while it differs from the sources. Removing or changing a declaration needs",
    'a new major version (SDK_VERSION in src/index.ts); adding one does not.',
  ];
  for (const [entry, lines] of Object.entries(surface.entries)) {
    parts.push(
      '',
      `## \`@fieldbook/extensions-sdk${entry === '.' ? '' : entry.slice(1)}\``,
      '',
      '```ts',
      ...lines,
      '```',
    );
  }
  return `${parts.join('\n')}\n`;
}

/** Reads a report back (what formatReport wrote). */
export function parseReport(text: string): ApiSurface {
  const version = /^SDK version: (\S+)$/m.exec(text)?.[1];
  if (!version) throw new Error('The API report has no "SDK version:" line.');
  const entries: Record<string, string[]> = {};
  for (const match of text.matchAll(/^## `@fieldbook\/extensions-sdk(\/[\w-]+)?`\n\n```ts\n([\s\S]*?)```$/gm)) {
    entries[match[1] ? `.${match[1]}` : '.'] = match[2]!.split('\n').filter((l) => l !== '');
  }
  return { version, entries };
}

/** A line's key: entry point, declaration name, and member name for indented lines. */
function keyed(entries: Record<string, string[]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [entry, lines] of Object.entries(entries)) {
    let owner = '';
    for (const line of lines) {
      if (line.startsWith('  ')) {
        const member =
          /^\s+(?:readonly\s+)?((?:new\b)|[\w$]+|'[^']*'|"[^"]*"|\[[^\]]*\]|[(<])/.exec(line)?.[1] ?? line.trim();
        const key = `${entry} ${owner}.${member}`;
        out.set(key, out.has(key) ? `${out.get(key)}\n${line}` : line); // overloads are one entry
      } else {
        owner =
          /^(?:declare\s+)?(?:abstract\s+)?(?:function|const|type|interface|class)\s+([\w$]+)/.exec(line)?.[1] ?? line;
        const key = `${entry} ${owner}`;
        out.set(key, out.has(key) ? `${out.get(key)}\n${line}` : line);
      }
    }
  }
  return out;
}

export interface SurfaceChange {
  removed: string[];
  changed: string[];
  added: string[];
}

/** What went from `before` to `after`, declaration by declaration and member by member. */
export function compareSurfaces(before: ApiSurface, after: ApiSurface): SurfaceChange {
  const a = keyed(before.entries);
  const b = keyed(after.entries);
  return {
    removed: [...a.keys()].filter((k) => !b.has(k)),
    changed: [...a.keys()].filter((k) => b.has(k) && b.get(k) !== a.get(k)),
    added: [...b.keys()].filter((k) => !a.has(k)),
  };
}

const major = (version: string): number => Number(version.split('.')[0]);

/**
 * Why the change from the report to the sources may not be written as it is, or null: a removed
 * or changed declaration breaks plugins built on the report's version, so it needs a new major.
 */
export function breakingWithoutMajor(before: ApiSurface, after: ApiSurface): string | null {
  const { removed, changed } = compareSurfaces(before, after);
  if (!removed.length && !changed.length) return null;
  if (major(after.version) > major(before.version)) return null;
  const list = [...removed.map((k) => `removed ${k}`), ...changed.map((k) => `changed ${k}`)];
  return `These break plugins built on SDK ${before.version} and need a new major version (SDK_VERSION ${major(after.version) + 1}.0.0 in extensions-sdk/src/index.ts):\n${list.map((l) => `  - ${l}`).join('\n')}`;
}

export function readCheckedInReport(): ApiSurface {
  return parseReport(readFileSync(REPORT_PATH, 'utf8'));
}
