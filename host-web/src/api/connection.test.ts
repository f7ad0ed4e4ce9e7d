import { describe, expect, it } from 'vitest';
import {
  ConnectionMonitor,
  FAILURE_CAP,
  connectionReducer,
  initialConnection,
  isDown,
  type ConnectionState,
} from './connection.ts';

const run = (events: Parameters<typeof connectionReducer>[1][], from: ConnectionState = initialConnection) =>
  events.reduce(connectionReducer, from);
const fail = { type: 'httpNetworkError', browserOnline: true } as const;
const okay = { type: 'httpOk' } as const;

describe('connection status and failure counter (000 §4)', () => {
  it('goes from connecting to connected on the first answer', () => {
    expect(run([okay]).status).toBe('connected');
  });

  it('counts failures up to 20 and successes down to 0', () => {
    const many = run(Array.from({ length: 25 }, () => fail));
    expect(many.failures).toBe(FAILURE_CAP);
    expect(run([okay, okay]).failures).toBe(0);
    expect(run([fail, fail, fail, okay]).failures).toBe(2);
  });

  it('treats the app as down only above 10 recent failures', () => {
    const ten = run(Array.from({ length: 10 }, () => fail));
    expect(isDown(ten)).toBe(false);
    expect(ten.status).toBe('reconnecting');
    const eleven = connectionReducer(ten, fail);
    expect(isDown(eleven)).toBe(true);
    expect(eleven.status).toBe('serverOffline');
    expect(isDown(connectionReducer(eleven, okay))).toBe(false);
  });

  it('says reconnected after a failure is followed by an answer, then settles', () => {
    const back = run([okay, fail, okay]);
    expect(back.status).toBe('reconnected');
    expect(connectionReducer(back, { type: 'settle' }).status).toBe('connected');
  });

  it('tells a client that is offline from a server that is', () => {
    expect(run([{ type: 'httpNetworkError', browserOnline: false }]).status).toBe('clientOffline');
    expect(run([{ type: 'browserOffline' }]).status).toBe('clientOffline');
    expect(run([{ type: 'browserOffline' }, { type: 'browserOnline' }]).status).toBe('reconnecting');
    expect(run([{ type: 'realtime', state: 'disconnected', browserOnline: true }]).status).toBe('serverOffline');
  });

  it('notifies listeners only on change', () => {
    const monitor = new ConnectionMonitor();
    const seen: string[] = [];
    monitor.subscribe((s) => seen.push(`${s.status}:${s.failures}`));
    monitor.dispatch(okay);
    monitor.dispatch(okay);
    monitor.dispatch(fail);
    expect(seen).toEqual(['connected:0', 'reconnecting:1']);
  });
});
