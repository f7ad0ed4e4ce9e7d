/**
 * The `fieldbook` command (`npm start`). Node keeps what it compiles of the code it loads in a
 * cache on disk, so every start after the first skips most of that work; the cache must be on
 * before the rest of Fieldbook is imported, hence this small entry.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache?.();
const { main, failed } = await import('./run.ts');
await main().catch(failed);
