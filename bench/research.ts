/**
 * The research repository at size: a generator fills one workspace with projects, notes and
 * highlights (1,000 / 100,000 / 1,000,000 at BENCH_RESEARCH_SCALE=1), then we time the project
 * page's note list (the first page, through GraphQL) and the export of the largest project.
 *
 * The generator writes rows directly, as a bulk import would: the 200-projects-per-workspace
 * rule (000 §9) is an API rule and would stop the 1,000 projects the benchmark asks for.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Knex } from 'knex';
import { graphql, percentile, round, signUpResearcher } from './support.ts';

export interface ResearchResults {
  /** The generated workspace, for the benchmarks that search it. */
  workspaceId: string;
  scale: number;
  projects: number;
  notes: number;
  highlights: number;
  insertSeconds: number;
  insertRowsPerSecond: number;
  noteList: { requests: number; p50Ms: number; p95Ms: number };
  largestProjectNotes: number;
  exportSeconds: number | null;
}

const NOTE_LIST = `query ($projectId: ID!) {
  notes(projectId: $projectId, first: 50) { nodes { id title updatedAt createdById } endCursor hasNextPage }
}`;

interface Target {
  url: string;
  token: string;
  workspace: string;
}

async function call<T>(t: Target, query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${t.url}/api/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${t.token}`,
      'x-fieldbook-workspace': t.workspace,
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: Array<{ message: string }> };
  if (body.errors?.length || !body.data) throw new Error(body.errors?.[0]?.message ?? `HTTP ${res.status}`);
  return body.data;
}

/** Inserts `total` rows with `insert … select … from generate_series`, in batches. */
async function generate(
  owner: Knex,
  total: number,
  batch: number,
  sql: (from: number, to: number) => string,
): Promise<void> {
  for (let from = 1; from <= total; from += batch) {
    await owner.raw(sql(from, Math.min(total, from + batch - 1)));
  }
}

export async function benchResearch(opts: {
  owner: Knex;
  url: string;
  token: string;
  userId: string;
  scale: number;
  log(line: string): void;
}): Promise<ResearchResults> {
  const { owner, scale, log } = opts;
  const projects = Math.max(2, Math.round(1000 * scale));
  const notes = Math.max(projects, Math.round(100_000 * scale));
  const highlightsPerNote = 10;
  // The first project is the largest: a tenth of all notes, the rest spread evenly.
  const largest = Math.round(notes / 10);

  const created = await call<{ createWorkspace: { workspace: { id: string; subdomain: string } } }>(
    { url: opts.url, token: opts.token, workspace: '' },
    'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id subdomain } } }',
    { input: { method: 'AUTH0', teamName: `Bench Research ${Date.now()}` } },
  );
  const ws = created.createWorkspace.workspace;
  const target: Target = { url: opts.url, token: opts.token, workspace: ws.id };

  log(`research: generating ${projects} projects, ${notes} notes, ${notes * highlightsPerNote} highlights ...`);
  const started = performance.now();
  await owner.raw(
    `insert into projects (workspace_id, title, rank, created_by)
     select ?, 'Project ' || i, i::double precision * 65536, ? from generate_series(1, ?) as i`,
    [ws.id, opts.userId, projects],
  );
  const projectIds = (await owner('projects').where({ workspace_id: ws.id }).orderBy('rank').select('id')).map(
    (r: { id: string }) => r.id,
  );
  // A plain table, not a temporary one: the pool may run the next statements on other connections.
  await owner.raw('create table bench_projects (n int primary key, id uuid)');
  await owner.raw(
    'insert into bench_projects (n, id) select n, id from unnest(?::uuid[]) with ordinality as t(id, n)',
    [projectIds],
  );
  const text =
    'We asked how the team plans research today; most keep notes in scattered documents and lose the thread when someone leaves. ';
  // Note i belongs to the largest project for i <= largest, else to one of the others in turn.
  await generate(owner, notes, 20_000, (from, to) =>
    owner
      .raw(
        `insert into notes (workspace_id, project_id, title, content_text, rank, created_by, updated_by)
         select ?, p.id, 'Interview ' || i, repeat(?, 4), i::double precision * 65536, ?, ?
         from generate_series(${from}, ${to}) as i
         join bench_projects p on p.n = case when i <= ? then 1 else 2 + (i % (? - 1)) end`,
        [ws.id, text, opts.userId, opts.userId, largest, projects],
      )
      .toString(),
  );
  await generate(owner, notes, 10_000, (from, to) =>
    owner
      .raw(
        `insert into highlights (workspace_id, project_id, note_id, text, start_offset, end_offset, created_by)
         select n.workspace_id, n.project_id, n.id, substr(n.content_text, h * 40 + 1, 30), h * 40, h * 40 + 30, ?
         from (select id, workspace_id, project_id, content_text from notes where workspace_id = ? order by rank offset ${from - 1} limit ${to - from + 1}) n
         cross join generate_series(0, ${highlightsPerNote - 1}) as h`,
        [opts.userId, ws.id],
      )
      .toString(),
  );
  await owner.raw('drop table bench_projects');
  const insertSeconds = (performance.now() - started) / 1000;
  const rows = projects + notes + notes * highlightsPerNote;
  await owner.raw('analyze projects, notes, highlights');

  log('research: timing the project page note list ...');
  const times: number[] = [];
  const requests = 200;
  for (let i = 0; i < requests + 20; i++) {
    const projectId = projectIds[i % projectIds.length]!;
    const t = performance.now();
    const data = await call<{ notes: { nodes: unknown[] } }>(target, NOTE_LIST, { projectId });
    if (i >= 20) times.push(performance.now() - t); // the first 20 warm up
    if (!data.notes.nodes.length) throw new Error('the note list came back empty');
  }

  const exportSeconds = await timeExport(target, projectIds[0]!, log);
  return {
    workspaceId: ws.id,
    scale,
    projects,
    notes,
    highlights: notes * highlightsPerNote,
    insertSeconds: round(insertSeconds),
    insertRowsPerSecond: Math.round(rows / insertSeconds),
    noteList: { requests, p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) },
    largestProjectNotes: largest,
    exportSeconds,
  };
}

/** Exports the largest project and waits for the job; null when exports do not exist. */
async function timeExport(target: Target, projectId: string, log: (line: string) => void): Promise<number | null> {
  let transferId: string;
  try {
    const started = await call<{ exportProject: { id: string } }>(
      target,
      'mutation ($id: ID!) { exportProject(projectId: $id) { id } }',
      { id: projectId },
    );
    transferId = started.exportProject.id;
  } catch (err) {
    log(`research: no export (${(err as Error).message})`);
    return null;
  }
  log('research: exporting the largest project ...');
  const t = performance.now();
  for (;;) {
    const { projectTransfer } = await call<{ projectTransfer: { status: string; error: string | null } }>(
      target,
      'query ($id: ID!) { projectTransfer(id: $id) { status error } }',
      { id: transferId },
    );
    if (projectTransfer.status === 'COMPLETED') return round((performance.now() - t) / 1000);
    if (projectTransfer.status === 'FAILED') throw new Error(`the export failed: ${projectTransfer.error}`);
    if (performance.now() - t > 600_000) throw new Error('the export took over 10 minutes');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * A researcher's workspace filled by benchResearch and kept between runs: signed in again from
 * `stateFile` when it names one, else signed up (confirmed through `mailbox`), filled and written
 * there, so a bench on a kept database builds its data once.
 */
export async function keptResearchWorkspace(opts: {
  owner: Knex;
  url: string;
  mailbox: ReadonlyArray<{ to: string; text: string }>;
  stateFile: string;
  /** Starts the new researcher's email, e.g. `bench-search`. */
  prefix: string;
  scale: number;
  log(line: string): void;
}): Promise<{ token: string; workspaceId: string }> {
  const { url } = opts;
  const signIn =
    'mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { accessToken } }';
  const kept = existsSync(opts.stateFile)
    ? (JSON.parse(readFileSync(opts.stateFile, 'utf8')) as { email: string; password: string; workspaceId: string })
    : null;
  if (kept) {
    const token = (
      await graphql<{ signIn: { accessToken: string } }>(url, signIn, { email: kept.email, password: kept.password })
    ).signIn.accessToken;
    return { token, workspaceId: kept.workspaceId };
  }
  const { email, password, token } = await signUpResearcher(url, opts.mailbox, opts.prefix);
  const me = await graphql<{ me: { id: string } }>(url, '{ me { id } }', {}, token);
  const research = await benchResearch({
    owner: opts.owner,
    url,
    token,
    userId: me.me.id,
    scale: opts.scale,
    log: opts.log,
  });
  writeFileSync(opts.stateFile, JSON.stringify({ email, password, workspaceId: research.workspaceId }));
  return { token, workspaceId: research.workspaceId };
}
