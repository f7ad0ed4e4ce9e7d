import { parentPort, Worker } from 'node:worker_threads';

/**
 * Heavy work (clustering a channel, reading a CSV file's head) runs in a worker thread of its own:
 * seconds of CPU on the server's thread would hold every request, and the job heartbeats that
 * tell a live worker from a dead one. A thread is started per run and ends with it; its script
 * imports only plain modules (no database, no core), as Node loads it without the server.
 */

/** What a thread posts: its progress (0 to 1), then its result. */
type ThreadMessage<O> = { progress: number } | { result: O };

/** Runs `script` (a module that calls serveThread) on `input` in a worker thread. */
export function runInThread<I, O>(script: URL, input: I, onProgress?: (fraction: number) => void): Promise<O> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script);
    let settled = false;
    const end = (finish: () => void) => {
      if (settled) return;
      settled = true;
      finish();
      void worker.terminate();
    };
    worker.on('message', (message: ThreadMessage<O>) => {
      if ('result' in message) end(() => resolve(message.result));
      else onProgress?.(message.progress);
    });
    worker.once('error', (error) => end(() => reject(error)));
    worker.once('exit', (code) => end(() => reject(new Error(`A worker thread exited (${code}) without a result.`))));
    worker.postMessage(input);
  });
}

/** The body of a thread's script: answers the one input it is sent with `work`'s result. */
export function serveThread<I, O>(work: (input: I, progress: (fraction: number) => void) => O): void {
  const port = parentPort;
  if (!port) throw new Error('This script runs as a worker thread only.');
  port.once('message', (input: I) => {
    const post = (message: ThreadMessage<O>) => port.postMessage(message);
    post({ result: work(input, (fraction) => post({ progress: fraction })) });
  });
}
