import { randomUUID } from 'node:crypto';
import ivm from 'isolated-vm';
import type { Logger } from '../../logger.ts';
import { decode, encode, type CrossingError, type Outcome, type PluginDescription } from './codec.ts';
import {
  describeContext,
  errorFromSandbox,
  errorIntoSandbox,
  runContextCall,
  runPureCall,
  type HostContext,
} from './host-calls.ts';
import { SandboxLimitError, type SandboxLimitKind, type SandboxLimits } from './limits.ts';

/** A call in progress: its context, the host errors thrown into it, and how to stop it. */
interface Call {
  ctx: HostContext | null;
  kept: unknown[];
  fail(err: Error): void;
}

interface Running {
  isolate: ivm.Isolate;
  invoke: ivm.Reference<(...args: unknown[]) => Promise<string>>;
  invokeSync: ivm.Reference<(...args: unknown[]) => string>;
  describe: ivm.Reference<() => string>;
}

const WATCH_EVERY_MS = 20;

/**
 * One plugin's V8 isolate: its bundle runs there once, and every call of its contributions enters
 * it. A call's code is stopped in two ways. The part it runs before its first wait is given
 * isolated-vm's own timeout of the CPU limit, which stops that call alone: the isolate and the
 * other calls in it carry on (a verifier that loops on one delivery leaves the deliveries queued
 * behind it to be verified). Code that spins after a wait is out of any timeout's reach: the
 * watchdog sees the isolate's CPU clock run on with no call ending, and throws the isolate away
 * (the only way to stop it), which ends every call in it; it waits for twice the limit, so that a
 * call's first part is always stopped by its own timeout first. Past the memory limit the isolate
 * is thrown away too. The next call starts a new isolate from the bundle.
 */
export class PluginIsolate {
  private running: Running | null = null;
  private readonly calls = new Map<string, Call>();
  private watchdog: NodeJS.Timeout | null = null;
  private stopping: SandboxLimitKind | null = null;
  /** The isolate's CPU clock when a call's code last ended (or it started): the watchdog's measure of being stuck. */
  private progressCpu = 0n;
  /**
   * Calls whose code has not ended in the isolate, answered or not (one past its wall time may still
   * spin there): the watchdog watches while there are any.
   */
  private unsettled = 0;
  private closed = false;
  /** V8's compiled code of the bundle, so a restart skips the compiling. */
  private compiled: ivm.ExternalCopy<ArrayBuffer> | undefined;
  /** The isolate webhook intake runs in (see `forIntake`), made on first use. */
  private intake: PluginIsolate | null = null;

  constructor(
    public pluginId: string,
    private readonly code: string,
    readonly limits: SandboxLimits,
    private readonly logger: Logger,
  ) {}

  /** Runs the bundle (the plugin's module code) and answers what the plugin contributes. */
  describe(): PluginDescription {
    const { describe } = this.start();
    return decode(describe.applySync(undefined, [], { timeout: this.limits.loadMs })) as PluginDescription;
  }

  private start(): Running {
    if (this.closed) throw this.closedError();
    if (this.running && !this.running.isolate.isDisposed) return this.running;
    const isolate = new ivm.Isolate({ memoryLimit: this.limits.memoryMb });
    const context = isolate.createContextSync();
    const global = context.global;
    global.setSync(
      '__fieldbookCall',
      new ivm.Reference((token: unknown, path: unknown, args: unknown) =>
        this.contextCall(String(token), String(path), String(args)),
      ),
    );
    global.setSync(
      '__fieldbookSync',
      new ivm.Reference((name: unknown, args: unknown) => this.pureCall(String(name), String(args))),
    );
    try {
      const script: ivm.Script & ivm.CachedDataResult = isolate.compileScriptSync(this.code, {
        filename: `plugin:${this.pluginId}`,
        cachedData: this.compiled,
        produceCachedData: !this.compiled,
      });
      if (!this.compiled && script.cachedData) this.compiled = script.cachedData;
      script.runSync(context, { timeout: this.limits.loadMs });
    } catch (err) {
      const reason = this.limitOr(err, isolate);
      if (!isolate.isDisposed) isolate.dispose();
      if (reason instanceof SandboxLimitError && reason.limit === 'cpu')
        throw new Error(`The plugin ${this.pluginId} took more than ${this.limits.loadMs} ms of CPU time to load.`);
      throw reason;
    }
    this.stopping = null;
    this.progressCpu = isolate.cpuTime;
    this.running = {
      isolate,
      invoke: global.getSync('__fieldbookInvoke', { reference: true }),
      invokeSync: global.getSync('__fieldbookInvokeSync', { reference: true }),
      describe: global.getSync('__fieldbookDescribe', { reference: true }),
    };
    return this.running;
  }

  /**
   * Calls a contribution (`action.0.execute`) with its arguments; the context, if any, goes in at
   * `ctxIndex`. Rejects with SandboxLimitError past a limit, else with what the plugin threw.
   */
  async invoke(path: string, args: unknown[], ctx: HostContext | null, ctxIndex = -1): Promise<unknown> {
    const { isolate, invoke } = this.start();
    const token = randomUUID();
    let fail!: (err: Error) => void;
    const stopped = new Promise<never>((_, reject) => (fail = reject));
    const call: Call = { ctx, kept: [], fail };
    this.calls.set(token, call);
    this.watch();
    const wall = setTimeout(() => fail(new SandboxLimitError(this.pluginId, 'wall', this.limits)), this.limits.wallMs);
    try {
      // The timeout covers the call's run up to its first wait, and stops that call alone.
      const answer = invoke.apply(
        undefined,
        [path, token, ctx ? encode(describeContext(ctx)) : '', encode(args), ctxIndex],
        { timeout: this.limits.cpuMs, result: { promise: true, copy: true } },
      );
      // A call stopped by a limit may still settle later; until its code ends, the isolate is watched.
      this.unsettled++;
      const settled = () => {
        this.unsettled--;
        this.progressed(isolate);
        if (this.unsettled === 0 && this.calls.size === 0) this.unwatch();
      };
      answer.then(settled, settled);
      const encoded = await Promise.race([answer, stopped]);
      return this.unwrap(decode(encoded) as Outcome, call);
    } catch (err) {
      throw this.limitOr(err, isolate);
    } finally {
      clearTimeout(wall);
      this.calls.delete(token);
      if (this.calls.size === 0 && this.unsettled === 0) this.unwatch();
    }
  }

  /**
   * A second isolate of the same bundle for webhook intake alone (verification, challenges, ids),
   * so a delivery's answer never waits behind the plugin's handlers and jobs in this one, and the
   * intake can run on the server's own thread (`invokeSync`) without queuing behind them.
   */
  forIntake(): PluginIsolate {
    if (this.closed) throw this.closedError();
    if (!this.intake) {
      this.intake = new PluginIsolate(this.pluginId, this.code, this.limits, this.logger);
      this.intake.compiled = this.compiled;
    }
    return this.intake;
  }

  /**
   * The same for the contract's synchronous functions (webhook verification, OAuth URLs), run on
   * the calling thread; `cpuMs` narrows the call's CPU limit.
   */
  invokeSync(
    path: string,
    args: unknown[],
    ctx: HostContext | null,
    ctxIndex = -1,
    cpuMs = this.limits.cpuMs,
  ): unknown {
    const { isolate, invokeSync } = this.start();
    const token = randomUUID();
    const call: Call = { ctx, kept: [], fail: () => undefined };
    this.calls.set(token, call);
    try {
      // The host waits for the answer, so the wall time is the CPU time here.
      const encoded = invokeSync.applySync(
        undefined,
        [path, token, ctx ? encode(describeContext(ctx)) : '', encode(args), ctxIndex],
        { timeout: cpuMs, result: { copy: true } },
      );
      return this.unwrap(decode(encoded) as Outcome, call);
    } catch (err) {
      throw this.limitOr(err, isolate);
    } finally {
      this.calls.delete(token);
      this.progressed(isolate);
    }
  }

  /** A call ended: the isolate is not stuck in one that never yields. */
  private progressed(isolate: ivm.Isolate): void {
    if (!isolate.isDisposed && isolate === this.running?.isolate) this.progressCpu = isolate.cpuTime;
  }

  /** The isolate's heap in use, external memory included (0 when it is not running). */
  heapBytes(): number {
    const intake = this.intake?.heapBytes() ?? 0;
    if (!this.running || this.running.isolate.isDisposed) return intake;
    const heap = this.running.isolate.getHeapStatisticsSync();
    return heap.used_heap_size + heap.externally_allocated_size + intake;
  }

  /**
   * Frees the isolate for good (the catalog closes with the server): calls still running end with
   * an error saying so, and later ones are refused rather than starting a new isolate.
   */
  dispose(): void {
    this.closed = true;
    this.intake?.dispose();
    this.unwatch();
    for (const call of this.calls.values()) call.fail(this.closedError());
    if (this.running && !this.running.isolate.isDisposed) this.running.isolate.dispose();
    this.running = null;
  }

  private closedError(): Error {
    return new Error(`The plugin ${this.pluginId} has been closed with the server.`);
  }

  private unwrap(outcome: Outcome, call: Call): unknown {
    if ('error' in outcome) throw errorFromSandbox(outcome.error, this.pluginId, call.kept);
    return outcome.ok;
  }

  /**
   * A failure of isolated-vm itself, told as the limit that caused it; any other error unchanged.
   * A timeout stopped the one call's code and left the isolate as it was, so it is kept.
   */
  private limitOr(err: unknown, isolate: ivm.Isolate): unknown {
    if (err instanceof SandboxLimitError) return err;
    const message = err instanceof Error ? err.message : String(err);
    if (/timed out/i.test(message)) return new SandboxLimitError(this.pluginId, 'cpu', this.limits);
    if (isolate.isDisposed)
      return this.closed
        ? this.closedError()
        : new SandboxLimitError(this.pluginId, this.stopping ?? 'memory', this.limits);
    return err;
  }

  /** While calls run, stops the isolate when its code has run for twice the CPU limit with no call ending. */
  private watch(): void {
    if (this.watchdog) return;
    this.watchdog = setInterval(() => {
      const running = this.running;
      if (!running || running.isolate.isDisposed) return;
      const stuckNs = 2n * BigInt(this.limits.cpuMs) * 1_000_000n;
      if (running.isolate.cpuTime - this.progressCpu <= stuckNs) return;
      this.stopping = 'cpu';
      this.logger.warn(
        { plugin: this.pluginId, limit: 'cpu' },
        'a plugin went past its CPU limit; its isolate is restarted',
      );
      running.isolate.dispose();
      // Every call in the isolate ends with it; each is told which limit stopped it.
      for (const call of this.calls.values()) call.fail(new SandboxLimitError(this.pluginId, 'cpu', this.limits));
    }, WATCH_EVERY_MS);
    this.watchdog.unref();
  }

  private unwatch(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
  }

  private async contextCall(token: string, path: string, args: string): Promise<string> {
    if (path === 'timer.sleep') {
      const ms = Math.min(Math.max(0, Number((decode(args) as unknown[])[0]) || 0), this.limits.wallMs);
      await new Promise((r) => setTimeout(r, ms));
      return encode({ ok: null });
    }
    const call = this.calls.get(token);
    if (!call?.ctx)
      return encode({
        error: { name: 'Error', message: 'This context belongs to a call that has ended.' } satisfies CrossingError,
      });
    try {
      return encode({ ok: await runContextCall(call.ctx, path, decode(args) as unknown[]) });
    } catch (err) {
      return encode({ error: errorIntoSandbox(err, call.kept) });
    }
  }

  private pureCall(name: string, args: string): string {
    const list = decode(args) as unknown[];
    if (name === 'log') {
      const [token, level, message, fields] = list as [
        string,
        'info' | 'warn' | 'error',
        string,
        Record<string, unknown>,
      ];
      const log = this.calls.get(token)?.ctx?.log;
      const lvl = level === 'warn' || level === 'error' ? level : 'info';
      if (log) log[lvl](String(message), fields);
      else this.logger[lvl]({ plugin: this.pluginId }, String(message).slice(0, 2000));
      return encode(null);
    }
    return encode(runPureCall(name, list));
  }
}
