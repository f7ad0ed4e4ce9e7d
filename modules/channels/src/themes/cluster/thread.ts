/**
 * The body of a clustering worker thread: clusters the texts it is sent, posting its progress,
 * then its result. The server's event loop meanwhile answers requests and beats its jobs' hearts.
 */
import { parentPort } from 'node:worker_threads';
import { clusterTexts, type ClusterInput } from './cluster.ts';
import type { ThreadMessage } from './offthread.ts';

const port = parentPort;
if (!port) throw new Error('The clustering thread runs as a worker thread only.');
port.once('message', (input: Omit<ClusterInput, 'onProgress'>) => {
  const post = (message: ThreadMessage) => port.postMessage(message);
  const result = clusterTexts({ ...input, onProgress: (fraction) => post({ progress: fraction }) });
  post({ result });
});
