import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoadedModule } from './registry.ts';

/**
 * Finds the domain modules in `modules/`: each folder is a package whose entry's default export
 * is a module. Core never imports a module by name, so the dependency arrow stays modules -> core.
 */
export async function discoverModules(projectRoot: string): Promise<LoadedModule[]> {
  const dir = join(projectRoot, 'modules');
  if (!existsSync(dir)) return [];
  const found: LoadedModule[] = [];
  for (const name of readdirSync(dir).sort()) {
    const pkgFile = join(dir, name, 'package.json');
    if (!existsSync(pkgFile)) continue;
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports?: Record<string, string> };
    const entry = pkg.exports?.['.'];
    if (!entry) continue;
    const mod = (await import(pathToFileURL(join(dir, name, entry)).href)) as { default?: LoadedModule };
    if (!mod.default?.definition) throw new Error(`modules/${name} does not export a module as its default export`);
    found.push(mod.default);
  }
  return found;
}
