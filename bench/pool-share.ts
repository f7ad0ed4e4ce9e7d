/**
 * Pool share: one member floods MCP with keyword searches while another workspace's admin reads
 * their projects. Prints the other workspace's read latency (p50, p95) with no load and under the
 * flood, in the same run, and the ratio of the two p95s; and how the flood's calls ended (answered,
 * or refused as busy). Aim: the other workspace's p95 under 200 ms, and its ratio near 1 on an idle
 * machine (a 2-core machine shares its CPU with the flood, so the ratio grows with the CPU the
 * searches take; the connections are what this bench is about). Run alone with
 * `npx tsx --no-node-snapshot bench/pool-share.ts`; BENCH_POOL_FLOOD (default 50) calls at once,
 * BENCH_POOL_READS (default 200) reads.
 */
import { graphql, percentile, round, runAlone, signUpResearcher } from './support.ts';

const FLOOD = Number(process.env.BENCH_POOL_FLOOD ?? 50);
const READS = Number(process.env.BENCH_POOL_READS ?? 200);
const LANES = 4;
const WORDS = ['onboarding', 'pricing', 'export', 'billing', 'integration', 'customer', 'team', 'search'];

const CREATE_WORKSPACE =
  'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }';
const CREATE_PROJECT = 'mutation ($input: CreateProjectInput!) { createProject(input: $input) { id } }';
const CREATE_NOTE = 'mutation ($input: CreateNoteInput!) { createNote(input: $input) { id } }';

const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

/** `READS` reads of the other workspace's projects over `LANES` lanes: each read's milliseconds, and the errors. */
async function reads(url: string, token: string, workspaceId: string): Promise<{ ms: number[]; errors: string[] }> {
  const ms: number[] = [];
  const errors: string[] = [];
  let left = READS;
  const lane = async () => {
    while (left-- > 0) {
      const t = performance.now();
      try {
        await graphql(url, '{ projects { id } }', {}, token, workspaceId);
        ms.push(performance.now() - t);
      } catch (err) {
        errors.push(err instanceof Error ? err.message : String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return { ms, errors };
}

await runAlone('pool-share', async ({ url, token, mailbox, log }) => {
  const flooded = (
    await graphql<{ createWorkspace: { workspace: { id: string } } }>(
      url,
      CREATE_WORKSPACE,
      { input: { method: 'AUTH0', teamName: `Flooded ${Date.now().toString(36)}` } },
      token,
    )
  ).createWorkspace.workspace.id;
  const project = (
    await graphql<{ createProject: { id: string } }>(url, CREATE_PROJECT, { input: { title: 'Study' } }, token, flooded)
  ).createProject.id;
  log('pool-share: 40 notes to search ...');
  for (let i = 0; i < 40; i++) {
    const text = `Interview ${i}: ${WORDS.map((w, j) => (i + j) % 3 === 0 && w)
      .filter(Boolean)
      .join(' and ')} came up.`;
    await graphql(
      url,
      CREATE_NOTE,
      { input: { projectId: project, title: `Interview ${i}`, content: doc(text) } },
      token,
      flooded,
    );
  }
  const apiToken = (
    await graphql<{ createApiToken: { token: string } }>(
      url,
      'mutation { createApiToken(name: "flood") { token } }',
      {},
      token,
      flooded,
    )
  ).createApiToken.token;

  const other = await signUpResearcher(url, mailbox, 'bench-pool-other', 'Other Team');
  const otherWs = (
    await graphql<{ createWorkspace: { workspace: { id: string } } }>(
      url,
      CREATE_WORKSPACE,
      { input: { method: 'AUTH0', teamName: `Other ${Date.now().toString(36)}` } },
      other.token,
    )
  ).createWorkspace.workspace.id;
  await graphql(url, CREATE_PROJECT, { input: { title: 'Their study' } }, other.token, otherWs);

  let firstFailure = '';
  const call = async (i: number): Promise<'answered' | 'busy' | 'limited' | 'failed'> => {
    try {
      return await callOnce(i);
    } catch (err) {
      firstFailure ||= String(err);
      return 'failed';
    }
  };
  const callOnce = async (i: number): Promise<'answered' | 'busy' | 'limited' | 'failed'> => {
    const res = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${apiToken}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'keyword_search', arguments: { query: WORDS[i % WORDS.length] } },
      }),
    });
    const body = (await res.json()) as { result?: { isError?: boolean; content?: Array<{ text: string }> } };
    if (res.ok && body.result && !body.result.isError) return 'answered';
    if (res.status === 429) return 'limited';
    if (/^Too many searches at once/.test(body.result?.content?.[0]?.text ?? '')) return 'busy';
    firstFailure ||= JSON.stringify(body).slice(0, 200);
    return 'failed';
  };

  log(`pool-share: ${READS} reads of another workspace, idle ...`);
  await reads(url, other.token, otherWs); // warm
  const idle = await reads(url, other.token, otherWs);

  log(`pool-share: the same reads while ${FLOOD} MCP keyword searches at a time flood the first workspace ...`);
  const outcomes = { answered: 0, busy: 0, limited: 0, failed: 0 };
  let flooding = true;
  // Waves of FLOOD calls at once until the reads end; past the token's 120 a minute they are answered 429.
  const flood = (async () => {
    while (flooding) for (const o of await Promise.all(Array.from({ length: FLOOD }, (_, i) => call(i)))) outcomes[o]++;
  })();
  const loaded = await reads(url, other.token, otherWs).finally(() => (flooding = false));
  await flood;

  const p = (s: { ms: number[] }, q: number) => round(percentile(s.ms, q));
  return [
    `Pool share (pool of 10; ${FLOOD} MCP keyword searches at once from one member; ${READS} reads of another workspace over ${LANES} lanes; aim: p95 < 200 ms)`,
    `  other workspace, idle        p50 ${p(idle, 50)} ms   p95 ${p(idle, 95)} ms   max ${p(idle, 100)} ms`,
    `  other workspace, flooded     p50 ${p(loaded, 50)} ms   p95 ${p(loaded, 95)} ms   max ${p(loaded, 100)} ms`,
    `  p95 flooded / idle           ${round(percentile(loaded.ms, 95) / percentile(idle.ms, 95), 2)}x`,
    `  other workspace's failed reads: ${idle.errors.length} idle, ${loaded.errors.length} flooded${loaded.errors[0] ? ` (${loaded.errors[0]})` : ''}`,
    `  flood's calls                ${outcomes.answered} answered, ${outcomes.busy} refused as busy, ${outcomes.limited} over the token's allowance (429), ${outcomes.failed} failed${firstFailure ? ` (${firstFailure})` : ''}`,
  ];
});
