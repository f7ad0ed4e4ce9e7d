/** What a bulk action did: the ids it finished and, for the rest, why not. */
export interface BulkResult {
  done: string[];
  failed: Array<{ id: string; error: unknown }>;
}

/**
 * Runs one request per item, in order, reporting progress after each. An item that fails does not
 * stop the rest: the result says which went through, so the screen can say the action was partial.
 */
export async function runEach(
  ids: readonly string[],
  fn: (id: string) => Promise<unknown>,
  onProgress?: (finished: number, total: number) => void,
): Promise<BulkResult> {
  const result: BulkResult = { done: [], failed: [] };
  for (const id of ids) {
    try {
      await fn(id);
      result.done.push(id);
    } catch (error) {
      result.failed.push({ id, error });
    }
    onProgress?.(result.done.length + result.failed.length, ids.length);
  }
  return result;
}

/** "3 notes", "1 note". */
export const count = (n: number, one: string, many: string): string =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
