import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { PluginDefinition } from '../../../extensions-sdk/src/server/index.ts';
import { createTestHost, type TestHost } from '../../../extensions-sdk/src/testing/index.ts';

const root = resolve(import.meta.dirname, '../../..');
const id = `feedback-${randomBytes(3).toString('hex')}`;
// Inside the repository, so the generated files resolve the SDK as a plugin in plugins/ would.
const dir = join(root, 'tests', '.artifacts', 'scaffold', id);
const script = join(root, 'extensions-sdk', 'scripts', 'create-plugin.mjs');

describe('npm run create-plugin', () => {
  let host: TestHost | undefined;
  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an invalid id and changes nothing', () => {
    expect(() => execFileSync(process.execPath, [script, 'Bad Id', '--dir', dir], { stdio: 'pipe' })).toThrow(
      /3 to 50 lowercase letters/,
    );
    expect(existsSync(dir)).toBe(false);
  });

  it('writes a plugin that loads, installs, and turns a message signed with its installation’s secret, sent to its own URL, into a note', async () => {
    execFileSync(process.execPath, [script, id, '--dir', dir], { stdio: 'pipe' });
    for (const file of [
      'package.json',
      'server/index.ts',
      'server/plugin.test.ts',
      'web/index.tsx',
      'rsbuild.config.ts',
      'README.md',
    ]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).fieldbook).toEqual({
      server: './server/index.ts',
      web: './web/dist',
    });
    expect(() => execFileSync(process.execPath, [script, id, '--dir', dir], { stdio: 'pipe' })).toThrow(
      /already exists/,
    );

    const plugin = (
      (await import(pathToFileURL(join(dir, 'server', 'index.ts')).href)) as { default: PluginDefinition }
    ).default;
    expect(plugin.manifest.id).toBe(id);
    const secret = 'scaffold-secret';
    host = await createTestHost({ plugins: [plugin] });
    const admin = await host.signUpAdmin();
    const projectId = await host.createProject('Feedback', admin);
    await host.install(id, { signingSecret: secret, projectId }, admin);
    await host.enable(id, projectId, admin);
    expect(await host.installationWebhookUrl(id, admin)).toMatch(
      new RegExp(`^http://localhost:3000/hooks/${id}/[A-Za-z0-9_-]{43}$`),
    );
    const body = JSON.stringify({ id: 'm-1', title: 'Coupon field', text: 'Customers cannot find the coupon field.' });
    const headers = {
      'content-type': 'application/json',
      [`x-${id}-signature`]: createHmac('sha256', secret).update(body).digest('hex'),
    };
    expect(
      (await host.deliverToInstallation(id, body, { ...headers, [`x-${id}-signature`]: '00' }, admin)).status,
    ).toBe(401);
    expect(await host.storedEvents(id)).toEqual([]);
    expect((await host.deliverToInstallation(id, body, headers, admin)).status).toBe(200);
    // Fixed paths are not where this plugin listens.
    expect((await host.sendWebhook(`/${id}/webhook`, body, headers)).status).toBe(404);
    await host.drainJobs();
    expect((await host.notes(projectId, admin)).map((n) => n.title)).toEqual(['Coupon field']);
  });
});
