import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository's root, whose tsconfig.base.json every package is compiled with. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The compiler options of the repository (tsconfig.base.json), as `tsc -p` would use them. */
export function compilerOptions(): ts.CompilerOptions {
  const configPath = join(repoRoot, 'tsconfig.base.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, repoRoot, undefined, configPath).options;
}

/** Type-checks files (and what they import); returns each error as `file(line,col): message`, none when they compile. */
export function typeErrors(files: readonly string[]): string[] {
  const program = ts.createProgram({ rootNames: [...files], options: { ...compilerOptions(), noEmit: true } });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return text;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName.slice(repoRoot.length + 1)}(${line + 1},${character + 1}): ${text}`;
  });
}
