import { describe, expect, it } from 'vitest';
import { PluginPermissionError } from '@fieldbook/extensions-sdk/server';
import { guardedHttp, isInternalAddress, pinnedLookup } from './egress.ts';
import { SecretBox } from './secret-box.ts';

describe('outbound requests of plugins', () => {
  it('knows the internal address ranges, IPv4, IPv6 and mapped', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    // NAT64 and 6to4 carry an IPv4 address inside, loopback or private as often as not.
    for (const a of ['64:ff9b::7f00:1', '64:ff9b::a00:1', '2002:7f00:1::1', '2002:c0a8:101::1']) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) expect(isInternalAddress(a), a).toBe(false);
  });

  it('knows the IPv6 ranges that carry or stand for an IPv4 address, and the retired ones', () => {
    for (const a of [
      // IPv4-compatible (::/96) and IPv4-mapped (::ffff:0:0/96), in every spelling a URL may give them.
      '::7f00:1',
      '::127.0.0.1',
      '::8.8.8.8',
      '::ffff:7f00:1',
      '::ffff:8.8.8.8',
      '0:0:0:0:0:ffff:127.0.0.1',
      '::ffff:0:a00:1',
      // Site-local (fec0::/10), retired but still routed by some networks.
      'fec0::1',
      'feff:ffff::1',
      // Teredo (2001::/32) tunnels to an IPv4 address it hides.
      '2001::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      // 6to4 and NAT64 with a private or loopback IPv4 inside.
      '2002:a00:1::1',
      '2002:a9fe:a9fe::',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::192.168.0.1',
    ]) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    // 6to4 and NAT64 of a public IPv4 address are public (an IPv6-only network reaches everything so).
    for (const a of ['2002:808:808::1', '64:ff9b::808:808', '64:ff9b::8.8.4.4', '2001:4860::8888', '2001:db9::1'])
      expect(isInternalAddress(a), a).toBe(false);
  });

  it('refuses an internal address written as IPv4-mapped IPv6 in the URL', async () => {
    const http = guardedHttp({ pluginId: 'p', declaredHosts: [], trustedOrigins: [] });
    // The URL parser turns [::ffff:127.0.0.1] into [::ffff:7f00:1].
    await expect(http.fetch('http://[::ffff:127.0.0.1]:8080/')).rejects.toThrow(
      '::ffff:7f00:1 is an internal address and can never be reached.',
    );
  });

  /** A transport that answers from a table and records what each hop sent. */
  function fakeTransport(answers: Record<string, Response | (() => Response)>) {
    const sent: Array<{ url: string; headers: Record<string, string> }> = [];
    const send = async (url: URL, request: RequestInit) => {
      sent.push({ url: url.toString(), headers: Object.fromEntries(new Headers(request.headers).entries()) });
      const answer = answers[url.toString()];
      if (!answer) throw new Error(`nothing answers ${url.toString()}`);
      return typeof answer === 'function' ? answer() : answer;
    };
    return { sent, send };
  }
  const redirect = (location: string, status = 302) => new Response(null, { status, headers: { location } });

  it('drops credentials on a redirect to another origin and keeps them on the same one', async () => {
    const { sent, send } = fakeTransport({
      'https://api.example.com/start': redirect('https://api.example.com/moved'),
      'https://api.example.com/moved': redirect('https://files.example.net/blob', 307),
      'https://files.example.net/blob': redirect('https://api.example.com/back'),
      'https://api.example.com/back': new Response('done'),
    });
    const http = guardedHttp({
      pluginId: 'p',
      declaredHosts: ['example.com', 'example.net'],
      trustedOrigins: [],
      resolve: async () => ['93.184.216.34'],
      send,
    });
    const res = await http.fetch('https://api.example.com/start', {
      headers: {
        authorization: 'Bearer secret',
        cookie: 'session=1',
        'proxy-authorization': 'Basic cHJveHk=',
        'x-request-id': 'r1',
      },
    });
    expect(await res.text()).toBe('done');
    expect(sent.map((s) => s.url)).toEqual([
      'https://api.example.com/start',
      'https://api.example.com/moved',
      'https://files.example.net/blob',
      'https://api.example.com/back',
    ]);
    expect(sent[1]!.headers).toMatchObject({ authorization: 'Bearer secret', cookie: 'session=1' });
    for (const hop of sent.slice(2)) {
      expect(hop.headers.authorization).toBeUndefined();
      expect(hop.headers.cookie).toBeUndefined();
      expect(hop.headers['proxy-authorization']).toBeUndefined();
      expect(hop.headers['x-request-id']).toBe('r1');
    }
  });

  it('refuses a redirect from a declared host into an origin the operator configured', async () => {
    const { sent, send } = fakeTransport({
      'https://api.example.com/open': redirect('http://10.0.0.8:9200/_cat/indices'),
      'https://api.example.com/public': redirect('https://models.example.org/v1'),
    });
    const http = guardedHttp({
      pluginId: 'p',
      declaredHosts: ['example.com'],
      trustedOrigins: ['http://10.0.0.8:9200', 'https://models.example.org'],
      resolve: async () => ['93.184.216.34'],
      send,
    });
    await expect(http.fetch('https://api.example.com/open')).rejects.toThrow(
      '10.0.0.8 is an internal address and can never be reached.',
    );
    // A configured origin reached by a redirect is checked as the plugin's own hosts are: not declared here.
    await expect(http.fetch('https://api.example.com/public')).rejects.toThrow(PluginPermissionError);
    expect(sent.map((s) => s.url)).toEqual(['https://api.example.com/open', 'https://api.example.com/public']);
  });

  it('refuses a declared host that resolves inside, an undeclared host and other schemes', async () => {
    const http = guardedHttp({
      pluginId: 'p',
      declaredHosts: ['slack.com'],
      trustedOrigins: [],
      resolve: async (h) => (h === 'evil.slack.com' ? ['10.0.0.5'] : ['93.184.216.34']),
    });
    await expect(http.fetch('https://evil.slack.com/api')).rejects.toThrow(/internal address/);
    await expect(http.fetch('https://slack.com.attacker.net/')).rejects.toThrow(PluginPermissionError);
    await expect(http.fetch('file:///etc/passwd')).rejects.toThrow(PluginPermissionError);
  });

  it('says an internal address can never be reached, rather than that a permission is missing', async () => {
    const http = guardedHttp({
      pluginId: 'p',
      declaredHosts: ['slack.com'],
      trustedOrigins: [],
      resolve: async () => ['93.184.216.34'],
    });
    for (const url of [
      'http://127.0.0.1:8080/admin',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
      'http://localhost:5432/',
      'http://10.0.0.5/',
    ]) {
      const err = await http.fetch(url).then(
        () => null,
        (e: unknown) => e,
      );
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      expect(err, url).toBeInstanceOf(Error);
      expect((err as Error).message, url).toBe(`${host} is an internal address and can never be reached.`);
      expect((err as Error).message, url).not.toMatch(/did not declare/);
    }
  });

  it('connects to the address it checked, even when the name resolves elsewhere a moment later', async () => {
    const { createServer } = await import('node:http');
    let reached = 0;
    const server = createServer((_req, res) => {
      reached++;
      res.writeHead(200).end('internal');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    // `localhost` is the one name this machine resolves to loopback by itself; the plugin's resolver
    // answers with a public documentation address first and with loopback afterwards (a rebinding).
    const answers: string[][] = [['198.51.100.7'], ['127.0.0.1']];
    const asked: string[] = [];
    const http = guardedHttp({
      pluginId: 'p',
      declaredHosts: ['localhost'],
      trustedOrigins: [],
      resolve: async (h) => {
        asked.push(h);
        return answers.shift() ?? ['127.0.0.1'];
      },
    });
    try {
      // The documentation address is unreachable; what matters is that loopback never is.
      await http.fetch(`http://localhost:${port}/secret`, { signal: AbortSignal.timeout(1500) }).catch(() => null);
      expect(reached).toBe(0);
      expect(asked).toEqual(['localhost']);
    } finally {
      server.close();
    }
  });

  it('pins a connection to the checked addresses whatever name it is asked for', async () => {
    const lookup = pinnedLookup(['93.184.216.34', '2606:4700::1111']);
    const one = await new Promise((resolve, reject) =>
      lookup('localhost', {}, (err, address, family) => (err ? reject(err) : resolve({ address, family }))),
    );
    expect(one).toEqual({ address: '93.184.216.34', family: 4 });
    const all = await new Promise((resolve, reject) =>
      lookup('localhost', { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
    );
    expect(all).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ]);
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
      await expect(http.fetch(`${origin}/hop`)).rejects.toThrow(
        '127.0.0.2 is an internal address and can never be reached.',
      );
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
