/**
 * The connection status people see (000 §4) and the recent HTTP failure counter: it rises by one
 * per failure up to 20 and falls by one per success down to 0; above 10 the app treats Fieldbook
 * as down or under maintenance.
 */
export type ConnectionStatus =
  | 'connecting'
  | 'connected'
  | 'reconnecting'
  | 'reconnected'
  | 'clientOffline'
  | 'serverOffline';

export const FAILURE_CAP = 20;
export const DOWN_THRESHOLD = 10;
/** GET /ping gives up after this long (000 §9). */
export const PING_TIMEOUT_MS = 5000;

export type RealtimeState = 'connecting' | 'connected' | 'reconnecting' | 'reconnected' | 'disconnected';

export type ConnectionEvent =
  | { type: 'httpOk' }
  | { type: 'httpNetworkError'; browserOnline: boolean }
  | { type: 'browserOffline' }
  | { type: 'browserOnline' }
  | { type: 'realtime'; state: RealtimeState; browserOnline: boolean }
  | { type: 'messageOk' }
  | { type: 'networkError'; browserOnline: boolean }
  /** A short while after reconnecting, the indicator settles back to connected. */
  | { type: 'settle' };

export interface ConnectionState {
  status: ConnectionStatus;
  failures: number;
}

export const initialConnection: ConnectionState = { status: 'connecting', failures: 0 };

/** True when recent failures say Fieldbook is down or under maintenance. */
export const isDown = (s: ConnectionState): boolean => s.failures > DOWN_THRESHOLD;

const recovering = (status: ConnectionStatus): boolean =>
  status === 'reconnecting' || status === 'clientOffline' || status === 'serverOffline';

function afterSuccess(status: ConnectionStatus): ConnectionStatus {
  if (status === 'connecting') return 'connected';
  if (recovering(status)) return 'reconnected';
  return status;
}

function afterFailure(failures: number, browserOnline: boolean): ConnectionStatus {
  if (!browserOnline) return 'clientOffline';
  return failures > DOWN_THRESHOLD ? 'serverOffline' : 'reconnecting';
}

export function connectionReducer(state: ConnectionState, event: ConnectionEvent): ConnectionState {
  switch (event.type) {
    case 'httpOk':
    case 'messageOk': {
      const failures = Math.max(0, state.failures - 1);
      return { failures, status: afterSuccess(state.status) };
    }
    case 'httpNetworkError':
    case 'networkError': {
      const failures = Math.min(FAILURE_CAP, state.failures + 1);
      return { failures, status: afterFailure(failures, event.browserOnline) };
    }
    case 'browserOffline':
      return { ...state, status: 'clientOffline' };
    case 'browserOnline':
      return { ...state, status: state.status === 'clientOffline' ? 'reconnecting' : state.status };
    case 'realtime':
      if (event.state === 'disconnected')
        return { ...state, status: event.browserOnline ? 'serverOffline' : 'clientOffline' };
      return { ...state, status: event.state };
    case 'settle':
      return { ...state, status: state.status === 'reconnected' ? 'connected' : state.status };
  }
}

type Listener = (state: ConnectionState) => void;

/** Holds the connection state for the app; the GraphQL client and the ping feed it. */
export class ConnectionMonitor {
  private state: ConnectionState = initialConnection;
  private readonly listeners = new Set<Listener>();

  get current(): ConnectionState {
    return this.state;
  }

  dispatch(event: ConnectionEvent): void {
    const next = connectionReducer(this.state, event);
    if (next.status === this.state.status && next.failures === this.state.failures) return;
    this.state = next;
    for (const l of [...this.listeners]) l(next);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** GET /ping with the 5 second time-out; true when Fieldbook answered. */
export async function ping(fetchFn: typeof fetch = fetch, timeoutMs = PING_TIMEOUT_MS): Promise<boolean> {
  try {
    const res = await fetchFn('/ping', { signal: AbortSignal.timeout(timeoutMs), cache: 'no-store' });
    return res.ok;
  } catch {
    return false;
  }
}
