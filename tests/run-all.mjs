#!/usr/bin/env node
// `npm test`: checks formatting and the direction of imports, typechecks while it builds the web
// app when stale and runs vitest, then runs Playwright, and reads both JSON reports so the last
// line is always `N passed, N failed` summed over every runner (CI reads it).
// Exits 1 when a test failed or a runner ended without a report (a crash counts as a failure).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const artifacts = join(root, 'tests', '.artifacts');
const vitestReport = join(artifacts, 'vitest.json');
const playwrightReport = join(artifacts, 'playwright.json');
const bin = (name) => join(root, 'node_modules', '.bin', name);

mkdirSync(artifacts, { recursive: true });
rmSync(vitestReport, { force: true });
rmSync(playwrightReport, { force: true });

/** @type {Array<{ runner: string, passed: number, failed: number, skipped: number, note?: string }>} */
const results = [];

function run(cmd, args, env = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (res.error) console.error(`${cmd}: ${res.error.message}`);
  return res.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

// --- TypeScript, strict, over the whole repository: a type error fails the run like a test ---
// It runs beside the web build and vitest rather than before them (one core's work for half a
// minute or more); its output goes to a file, printed once it is done. Incremental: a second run
// on the same checkout rechecks only what changed (the build info lives in node_modules/.cache).
const tscLog = join(artifacts, 'tsc.log');
const typecheck = (() => {
  const out = openSync(tscLog, 'w');
  const buildInfo = join(root, 'node_modules', '.cache', 'fieldbook', 'tsconfig.tsbuildinfo');
  mkdirSync(dirname(buildInfo), { recursive: true });
  const started = Date.now();
  const child = spawn(
    bin('tsc'),
    ['-p', 'tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', buildInfo],
    { cwd: root, stdio: ['ignore', out, out] },
  );
  closeSync(out);
  // The exit is only heard once vitest is done (spawnSync holds this process): tsc's own time is
  // read from when it wrote its build info, its last act.
  const seconds = () => {
    const finished = existsSync(buildInfo) ? statSync(buildInfo).mtimeMs : 0;
    return finished > started ? (finished - started) / 1000 : null;
  };
  return new Promise((resolveCode) => {
    child.on('error', (err) => resolveCode({ code: 1, note: err.message, seconds: null }));
    child.on('exit', (code, signal) =>
      resolveCode({ code: code ?? 1, note: signal ? `killed by ${signal}` : null, seconds: seconds() }),
    );
  });
})();

// --- Biome: the formatter's check (and the linter's rules, once set in biome.json) over the tree ---
{
  const code = run(bin('biome'), ['check', '--reporter=summary', '.']);
  results.push({
    runner: 'biome',
    passed: code === 0 ? 1 : 0,
    failed: code === 0 ? 0 : 1,
    skipped: 0,
    ...(code === 0 ? {} : { note: 'run `npm run format` and read `npx biome check .`' }),
  });
}

// --- dependency-cruiser: the direction of imports (.dependency-cruiser.cjs, ARCHITECTURE.md) ---
{
  const code = run('npm', ['run', '--silent', 'deps']);
  results.push({
    runner: 'deps',
    passed: code === 0 ? 1 : 0,
    failed: code === 0 ? 0 : 1,
    skipped: 0,
    ...(code === 0 ? {} : { note: 'run `npm run deps`: each error names the rule and the import' }),
  });
}

// The browser tests serve host-web/dist; the script rebuilds it only when sources changed.
if (existsSync(join(root, 'host-web', 'scripts', 'build-if-stale.mjs'))) {
  const code = run('npm', ['run', '--silent', 'build:web']);
  if (code !== 0) results.push({ runner: 'web build', passed: 0, failed: 1, skipped: 0, note: `exit code ${code}` });
}

// --- vitest (unit and integration) ---
const vitestCode = run(bin('vitest'), ['run']);
const vitest = readJson(vitestReport);
if (!vitest) {
  results.push({ runner: 'vitest', passed: 0, failed: 1, skipped: 0, note: `no report (exit code ${vitestCode})` });
} else {
  // A file that fails to load has no failed test in it, yet it failed: count it once.
  const brokenFiles = (vitest.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  const failed = (vitest.numFailedTests ?? 0) + brokenFiles;
  results.push({
    runner: 'vitest',
    passed: vitest.numPassedTests ?? 0,
    failed: failed === 0 && vitestCode !== 0 ? 1 : failed,
    skipped: (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0),
    ...(failed === 0 && vitestCode !== 0 ? { note: `exit code ${vitestCode} with no failed test` } : {}),
  });
}

{
  const { code, note, seconds } = await typecheck;
  const log = readFileSync(tscLog, 'utf8').trim();
  console.log(
    `\ntypecheck (tsc) ${code === 0 ? 'passed' : 'failed'}${seconds ? ` in ${seconds.toFixed(0)} s` : ''}${log ? `:\n${log}` : ''}`,
  );
  results.push({
    runner: 'typecheck',
    passed: code === 0 ? 1 : 0,
    failed: code === 0 ? 0 : 1,
    skipped: 0,
    ...(code === 0 ? {} : { note: note ?? `tsc exit code ${code}` }),
  });
}

// --- Playwright (browser) ---
if (existsSync(join(root, 'playwright.config.ts'))) {
  const pwCode = run(bin('playwright'), ['test', '--reporter=list,json', '--pass-with-no-tests'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
  });
  const pw = readJson(playwrightReport);
  if (!pw?.stats) {
    results.push({ runner: 'playwright', passed: 0, failed: 1, skipped: 0, note: `no report (exit code ${pwCode})` });
  } else {
    const s = pw.stats;
    printFailurePages(pw);
    // Errors outside any test (global setup, a web server that never started) fail the run too.
    const failed = (s.unexpected ?? 0) + (pw.errors?.length ?? 0);
    results.push({
      runner: 'playwright',
      passed: (s.expected ?? 0) + (s.flaky ?? 0),
      failed: failed === 0 && pwCode !== 0 ? 1 : failed,
      skipped: s.skipped ?? 0,
      ...(s.flaky ? { note: `${s.flaky} flaky (passed on retry)` } : {}),
      ...(failed === 0 && pwCode !== 0 ? { note: `exit code ${pwCode} with no failed test` } : {}),
    });
  }
}

/**
 * CI keeps no test-results folder, so the page as it stood when a browser test failed (its
 * accessibility snapshot, which Playwright writes as error-context.md) goes into the log.
 */
function printFailurePages(report) {
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        for (const result of test.results ?? []) {
          if (result.status === 'passed' || result.status === 'skipped') continue;
          for (const a of result.attachments ?? []) {
            if (a.name !== 'error-context' || !a.path || !existsSync(a.path)) continue;
            const lines = readFileSync(a.path, 'utf8').split('\n');
            console.log(`\n--- page when "${spec.title}" failed (attempt ${result.retry + 1}) ---`);
            console.log(lines.slice(0, 120).join('\n'));
          }
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
}

const total = results.reduce(
  (t, r) => ({ passed: t.passed + r.passed, failed: t.failed + r.failed, skipped: t.skipped + r.skipped }),
  { passed: 0, failed: 0, skipped: 0 },
);
console.log('\nSummary');
for (const r of results) {
  const skipped = r.skipped ? `, ${r.skipped} skipped` : '';
  console.log(
    `  ${r.runner.padEnd(11)} ${r.passed} passed, ${r.failed} failed${skipped}${r.note ? ` (${r.note})` : ''}`,
  );
}
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed > 0 ? 1 : 0);
