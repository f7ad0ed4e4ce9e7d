import { describe, expect, it } from 'vitest';
import { PluginPermissionError } from '@fieldbook/extensions-sdk/server';
import { guardedHttp, isInternalAddress } from './egress.ts';
import { SecretBox } from './secret-box.ts';

describe('outbound requests of plugins', () => {
  it('knows the internal address ranges, IPv4, IPv6 and mapped', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1']) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isInternalAddress(a), a).toBe(false);
  });

  it('refuses a declared host that resolves inside, an undeclared host and other schemes', async () => {
    const http = guardedHttp({ pluginId: 'p', declaredHosts: ['slack.com'], trustedOrigins: [], resolve: async (h) => (h === 'evil.slack.com' ? ['10.0.0.5'] : ['93.184.216.34']) });
    await expect(http.fetch('https://evil.slack.com/api')).rejects.toThrow(/internal address/);
    await expect(http.fetch('https://slack.com.attacker.net/')).rejects.toThrow(PluginPermissionError);
    await expect(http.fetch('file:///etc/passwd')).rejects.toThrow(PluginPermissionError);
  });

  it('lets through what the operator configured, internal or not, and checks every redirect hop', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      if (req.url === '/hop') res.writeHead(302, { location: 'http://127.0.0.2:1/secret' }).end();
      else res.writeHead(200).end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const http = guardedHttp({ pluginId: 'p', declaredHosts: [], trustedOrigins: [origin] });
      expect(await (await http.fetch(`${origin}/fine`)).text()).toBe('ok');
      await expect(http.fetch(`${origin}/hop`)).rejects.toThrow(/egress:127.0.0.2/);
    } finally {
      server.close();
    }
  });
});

describe('secrets at rest', () => {
  it('seals and opens, and a changed byte or another key cannot open', () => {
    const box = new SecretBox(Buffer.alloc(32, 7));
    const sealed = box.seal({ botToken: 'xoxb-123' });
    expect(sealed).not.toContain('xoxb');
    expect(box.open(sealed)).toEqual({ botToken: 'xoxb-123' });
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed)).toThrow();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
  });
});
