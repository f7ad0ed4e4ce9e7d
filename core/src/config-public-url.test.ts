import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('PUBLIC_URL', () => {
  it('defaults to localhost on the port Fieldbook listens on', () => {
    const config = loadConfig({ PORT: '4100', SECRET_KEY: 'k'.repeat(32) });
    expect(config.publicUrl.href).toBe('http://localhost:4100/');
    expect(config.rootHost).toBe('localhost:4100');
    expect(config.publicUrlFromPort).toBe(true);
  });

  it('is taken as given when set', () => {
    const config = loadConfig({ PORT: '4100', PUBLIC_URL: 'https://research.example.com', SECRET_KEY: 'k'.repeat(32) });
    expect(config.publicUrl.href).toBe('https://research.example.com/');
    expect(config.publicUrlFromPort).toBe(false);
  });
});
