import type { TestServer } from './server.ts';

/**
 * Waits until no job of the given queues is waiting, retrying or running: what a test needs
 * before it asserts that work done in a job (notifications fanned out, say) did or did not
 * happen. Fails after `timeoutMs`, naming the queues still busy.
 */
export async function queuesIdle(server: TestServer, queues: readonly string[], timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = (await server.fieldbook.db.owner.raw(
      `select distinct name from pgboss.job where name = any(?) and state in ('created', 'retry', 'active')`,
      [[...queues]],
    )) as {
      rows: Array<{ name: string }>;
    };
    if (!rows.length) return;
    if (Date.now() > deadline) throw new Error(`jobs still waiting in ${rows.map((r) => r.name).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
