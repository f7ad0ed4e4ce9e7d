import { Worker } from 'node:worker_threads';
import type { ClusterInput, ClusterResult } from './cluster.ts';

/** What the clustering thread posts: its progress (0 to 1), then its result. */
export type ThreadMessage = { progress: number } | { result: ClusterResult };

/**
 * Clusters in a worker thread of its own: vectorising, k-means and titles take seconds of CPU at
 * a large channel (8 s at 200,000 points), which on the server's thread would hold every request
 * and the job heartbeats that tell a live worker from a dead one. The thread ends with the run.
 */
export function clusterOffThread(
  input: Omit<ClusterInput, 'onProgress'>,
  onProgress?: (fraction: number) => void,
): Promise<ClusterResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./thread.ts', import.meta.url));
    let settled = false;
    const end = (finish: () => void) => {
      if (settled) return;
      settled = true;
      finish();
      void worker.terminate();
    };
    worker.on('message', (message: ThreadMessage) => {
      if ('result' in message) end(() => resolve(message.result));
      else onProgress?.(message.progress);
    });
    worker.once('error', (error) => end(() => reject(error)));
    worker.once('exit', (code) =>
      end(() => reject(new Error(`The clustering thread exited (${code}) without a result.`))),
    );
    worker.postMessage(input);
  });
}
