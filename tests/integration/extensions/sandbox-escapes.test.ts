import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestHost, type TestHost } from '../../../extensions-sdk/src/testing/index.ts';
import {
  loadSandboxedPlugin,
  SandboxLimitError,
  type SandboxedPlugin,
} from '../../../core/src/extensions/sandbox/index.ts';
import { createLogger } from '../../../core/src/logger.ts';

const fixtures = join(import.meta.dirname, 'fixtures', 'sandboxed');
const logger = createLogger('silent');

/** A server on loopback that counts what reaches it: the sandbox must keep plugins away from it. */
let loopback: Server;
let loopbackUrl: string;
let reached = 0;
let sandboxed: SandboxedPlugin;
let host: TestHost;

beforeAll(async () => {
  loopback = createServer((_req, res) => {
    reached++;
    res.end('secret internals');
  });
  await new Promise<void>((r) => loopback.listen(0, '127.0.0.1', r));
  loopbackUrl = `http://127.0.0.1:${(loopback.address() as { port: number }).port}/`;
  // Generous bounds: the machine running the tests may be busy, and each case only needs to stop.
  sandboxed = await loadSandboxedPlugin({
    packageDir: join(fixtures, 'escape-artist'),
    serverEntry: './server.ts',
    logger,
    limits: { cpuMs: 1000, memoryMb: 32, wallMs: 3000 },
  });
  host = await createTestHost({ plugins: [sandboxed.definition] });
  await host.signUpAdmin();
  await host.install('escape-artist');
});

afterAll(async () => {
  await host?.close();
  sandboxed?.isolate.dispose();
  await new Promise((r) => loopback?.close(r));
});

const attempt = (key: string, params: Record<string, unknown> = {}) => host.runAction('escape-artist', key, params);

describe('a sandboxed plugin', () => {
  it('finds no process, require, fetch or host bridge among its globals', async () => {
    expect(await attempt('globals')).toEqual({ summary: '[]' });
  });

  it('cannot reach the network but through its context, which refuses loopback', async () => {
    await expect(attempt('globalFetch', { url: loopbackUrl })).rejects.toThrow(/fetch is not a function/);
    await expect(attempt('contextFetch', { url: loopbackUrl })).rejects.toThrow(
      /^127\.0\.0\.1 is an internal address and can never be reached\.$/,
    );
    expect(reached).toBe(0);
  });

  it('cannot load Node modules at run time: no files, no child processes', async () => {
    for (const module of ['node:fs', 'node:child_process', 'node:net', 'fs']) {
      await expect(attempt('importModule', { module })).rejects.toThrow();
      await expect(attempt('require', { module })).rejects.toThrow(/require is not a function/);
    }
  });

  it('is not built at all when it imports node:fs to read the secret key', async () => {
    await expect(
      loadSandboxedPlugin({ packageDir: join(fixtures, 'file-reader'), serverEntry: './server.ts', logger }),
    ).rejects.toThrow(/cannot use node:fs/);
  });

  it('cannot read the environment, even through the Function constructor of an object passed in', async () => {
    process.env.SANDBOX_CANARY = 'host-only';
    await expect(attempt('environment')).rejects.toThrow(/reading 'env'/);
    await expect(attempt('functionConstructor')).rejects.toThrow(/process is not defined/);
    delete process.env.SANDBOX_CANARY;
  });

  it("pollutes only its own prototypes, never the host's or the objects the host passed in", async () => {
    const params = { note: 'kept as given' };
    expect(await attempt('pollute', params)).toEqual({ summary: '"polluted"' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).viaParams).toBeUndefined();
    expect(({} as Record<string, unknown>).viaPayload).toBeUndefined();
    expect(params).toEqual({ note: 'kept as given' });
    const list: number[] = [];
    list.push(1);
    expect(JSON.stringify(list)).toBe('[1]');
    // Its own JSON and arrays are broken now, yet its answers still cross intact.
    expect(await attempt('echo', { still: 'answers' })).toEqual({ summary: '{"still":"answers"}' });
  });
});

describe('limits per call', () => {
  it('stops a call that spins past its CPU time, with a clear error, and the next call runs', async () => {
    const started = Date.now();
    const err = await attempt('spin').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxLimitError);
    expect((err as SandboxLimitError).limit).toBe('cpu');
    expect((err as Error).message).toMatch(/escape-artist used more than 1000 ms of CPU time/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await attempt('echo', { again: true })).toEqual({ summary: '{"again":true}' });
  });

  it('stops a call that spins after waiting on its context', async () => {
    await expect(attempt('spinAfterWaiting')).rejects.toMatchObject({ limit: 'cpu' });
  });

  it('stops a call that takes more memory than allowed', async () => {
    const err = await attempt('hoard').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxLimitError);
    expect((err as SandboxLimitError).limit).toBe('memory');
    expect((err as Error).message).toMatch(/more than 32 MB of memory/);
    expect(await attempt('echo', { after: 'memory' })).toEqual({ summary: '{"after":"memory"}' });
  });

  it('refuses a plugin whose module code spins while it loads', async () => {
    const loading = loadSandboxedPlugin({
      packageDir: join(import.meta.dirname, 'fixtures', 'sandboxed-spinning', 'spins-at-load'),
      serverEntry: './server.ts',
      logger,
      limits: { loadMs: 500 },
    });
    await expect(loading).rejects.toThrow('The plugin spins-at-load took more than 500 ms of CPU time to load.');
  });

  it('answers a call that never settles once its wall time is up', async () => {
    const err = await attempt('hang').catch((e: unknown) => e);
    expect(err).toMatchObject({ limit: 'wall', message: expect.stringMatching(/took longer than 3000 ms/) });
  });
});
