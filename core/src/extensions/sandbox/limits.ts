/** What one call into a sandboxed plugin may use. Operators may raise them per installation of Fieldbook. */
export interface SandboxLimits {
  /** CPU time the plugin's code may run during one call (its waits on the context do not count). */
  cpuMs: number;
  /** Heap of the plugin's isolate, shared by its calls in progress. */
  memoryMb: number;
  /** Time from the start of a call to its answer, waits on the network included. */
  wallMs: number;
  /** CPU time the plugin's bundle may take to load (its modules' own code), at start and after a restart. */
  loadMs: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { cpuMs: 2_000, memoryMb: 128, wallMs: 60_000, loadMs: 10_000 };

export type SandboxLimitKind = 'cpu' | 'memory' | 'wall';

/** A call into a sandboxed plugin was stopped because it went past one of its limits. */
export class SandboxLimitError extends Error {
  constructor(
    readonly pluginId: string,
    readonly limit: SandboxLimitKind,
    limits: SandboxLimits,
  ) {
    super(
      limit === 'cpu'
        ? `The plugin ${pluginId} used more than ${limits.cpuMs} ms of CPU time in one call and was stopped.`
        : limit === 'memory'
          ? `The plugin ${pluginId} used more than ${limits.memoryMb} MB of memory and was stopped.`
          : `The plugin ${pluginId} took longer than ${limits.wallMs} ms to answer and was stopped.`,
    );
    this.name = 'SandboxLimitError';
  }
}
