import { runInThread } from '../../threads/threads.ts';
import type { ClusterInput, ClusterResult } from './cluster.ts';

/**
 * Clusters in a worker thread: vectorising, k-means and titles take seconds of CPU at a large
 * channel (8 s at 200,000 points), which the server's thread spends answering requests instead.
 */
export const clusterOffThread = (
  input: Omit<ClusterInput, 'onProgress'>,
  onProgress?: (fraction: number) => void,
): Promise<ClusterResult> => runInThread(new URL('./thread.ts', import.meta.url), input, onProgress);
