/**
 * The project page's note list under load: 100 connections (autocannon, a process of its own)
 * asking for the first page of one project's notes as a signed-in member, with requests/s, p99
 * and what each request costs the database in transactions (pg_stat_database's xact_commit
 * before and after the run, less what the idle process commits meanwhile: job polling and the
 * like).
 *
 * `npx tsx --no-node-snapshot bench/note-list-load.ts` runs it alone on a new data folder.
 */
import type { Knex } from 'knex';
import { autocannon } from './load.ts';
import { graphql, round, runAlone } from './support.ts';

export interface NoteListLoadResult {
  connections: number;
  seconds: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Committed transactions per answered request, idle commits taken out. */
  transactionsPerRequest: number;
}

const NOTE_LIST = `query ($projectId: ID!) {
  notes(projectId: $projectId, first: 50) { nodes { id title updatedAt createdById } endCursor hasNextPage }
}`;

async function commits(owner: Knex): Promise<number> {
  // Backends report their counts at most once a second; wait for the last run's to arrive.
  await new Promise((r) => setTimeout(r, 1500));
  const { rows } = await owner.raw<{ rows: Array<{ n: string }> }>(
    'select xact_commit as n from pg_stat_database where datname = current_database()',
  );
  return Number(rows[0]!.n);
}

export async function benchNoteListLoad(opts: {
  url: string;
  owner: Knex;
  token: string;
  userId: string;
  connections?: number;
  seconds?: number;
  log(line: string): void;
}): Promise<NoteListLoadResult> {
  const connections = opts.connections ?? 100;
  const seconds = opts.seconds ?? 10;
  const ws = await graphql<{ createWorkspace: { workspace: { id: string } } }>(
    opts.url,
    'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }',
    { input: { method: 'AUTH0', teamName: `Note list load ${Date.now().toString(36)}` } },
    opts.token,
  );
  const workspaceId = ws.createWorkspace.workspace.id;
  const project = await graphql<{ createProject: { id: string } }>(
    opts.url,
    'mutation ($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Onboarding interviews' } },
    opts.token,
    workspaceId,
  );
  const projectId = project.createProject.id;
  // A full first page and more, written as a bulk import would.
  await opts.owner.raw(
    `insert into notes (workspace_id, project_id, title, content_text, rank, created_by, updated_by)
     select ?, ?, 'Interview ' || i, 'We asked how the team plans research today.', i * 65536.0, ?, ?
     from generate_series(1, 120) as i`,
    [workspaceId, projectId, opts.userId, opts.userId],
  );
  const target = {
    name: 'project page note list',
    url: `${opts.url}/api/graphql`,
    method: 'POST' as const,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${opts.token}`,
      'x-fieldbook-workspace': workspaceId,
    },
    body: JSON.stringify({ query: NOTE_LIST, variables: { projectId } }),
  };
  opts.log(`note list load: ${connections} connections, ${seconds} s ...`);
  await autocannon(target, { connections, seconds: 2 }); // warm-up: JIT, pool growth, caches

  const idleStart = await commits(opts.owner);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const idle = (await commits(opts.owner)) - idleStart;

  const before = await commits(opts.owner);
  const run = await autocannon(target, { connections, seconds });
  const during = (await commits(opts.owner)) - before;
  // Both windows include the same 1.5 s wait for the counts and a query of ours each.
  return {
    connections,
    seconds,
    reqPerSec: run.reqPerSec,
    p50Ms: run.p50Ms,
    p99Ms: run.p99Ms,
    requests: run.requests,
    non2xx: run.non2xx,
    errors: run.errors,
    transactionsPerRequest: run.requests ? round(Math.max(0, during - idle) / run.requests, 2) : 0,
  };
}

export function describeNoteListLoad(r: NoteListLoadResult): string {
  return `  ${r.reqPerSec} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${r.transactionsPerRequest} transactions per request (${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors)`;
}

/** This benchmark alone, on a new data folder. */
async function main(): Promise<void> {
  await runAlone('load', async ({ fieldbook, url, token, log }) => {
    const me = await graphql<{ me: { id: string } }>(url, '{ me { id } }', {}, token);
    const result = await benchNoteListLoad({
      url,
      owner: fieldbook.db.owner,
      token,
      userId: me.me.id,
      seconds: Number(process.env.BENCH_SECONDS ?? 10),
      log,
    });
    return ['Project page note list, 100 connections', describeNoteListLoad(result)];
  });
}

if (process.argv[1]?.endsWith('bench/note-list-load.ts')) await main();
