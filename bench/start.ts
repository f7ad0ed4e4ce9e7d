/**
 * `tsx bench/start.ts`: the start-up figures alone: a first start on a new data folder, then
 * warm starts (nothing changed), each `npm start` to the first 200 from /ping, with where the
 * time went. `npm run bench` reports the same first and warm start.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeStart, type StartTiming } from './cold-start.ts';
import { freePort } from './support.ts';

const WARM_RUNS = Number(process.env.BENCH_WARM_STARTS ?? 3);

export function describePhases(t: StartTiming): string {
  if (!t.phases) return `${Math.round(t.ms)} ms`;
  const parts = Object.entries(t.phases).map(([k, v]) => `${k} ${v}`);
  return `${Math.round(t.ms)} ms (${parts.join(', ')})`;
}

const dataDir = mkdtempSync(join(tmpdir(), 'fieldbook-bench-start-'));
chmodSync(dataDir, 0o755); // the embedded PostgreSQL may run as the `postgres` user
try {
  const pgPort = await freePort();
  const first = await timeStart(dataDir, pgPort);
  process.stdout.write(`first start: ${describePhases(first)}\n`);
  const warm: StartTiming[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    warm.push(await timeStart(dataDir, pgPort));
    process.stdout.write(`warm start:  ${describePhases(warm[warm.length - 1]!)}\n`);
  }
  const sorted = warm.map((w) => w.ms).sort((a, b) => a - b);
  process.stdout.write(`warm start median: ${Math.round(sorted[Math.floor(sorted.length / 2)]!)} ms\n`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
