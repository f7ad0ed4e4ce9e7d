/** A CSV preview worker thread (see runInThread): decodes and reads the head of a file it is sent. */
import { serveThread } from '../threads/threads.ts';
import { previewCsv, type CsvPreview } from './preview.ts';

serveThread<{ bytes: Uint8Array; complete: boolean }, CsvPreview | { problem: string }>(({ bytes, complete }) =>
  previewCsv(new TextDecoder().decode(bytes), complete),
);
