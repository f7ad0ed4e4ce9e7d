/** A clustering worker thread (see runInThread): clusters the texts it is sent, posting its progress. */
import { serveThread } from '../../threads/threads.ts';
import { clusterTexts, type ClusterInput, type ClusterResult } from './cluster.ts';

serveThread<Omit<ClusterInput, 'onProgress'>, ClusterResult>((input, progress) =>
  clusterTexts({ ...input, onProgress: progress }),
);
