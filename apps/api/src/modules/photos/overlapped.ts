/**
 * Receives each item of an async sequence in order and works on it while the next ones arrive: the
 * next file of an upload is received while the earlier ones are processed (decision 0070). Before,
 * a request's files went strictly one after another, so one processing slot sat idle while each
 * file arrived and nothing was processed while the next was received.
 *
 * - `receive` runs in the sequence's order, one at a time (a multipart body's parts can only be
 *   read that way); its failure stops everything at once.
 * - At most `limit` received items are in work; the sequence is not read further until one ends.
 * - The results keep the sequence's order, whatever order the work ends in.
 * - On the first failure (of the work, of `receive` or of the sequence itself, e.g. a connection
 *   dropped midway) nothing more is read, and the error is thrown only once every work already
 *   started has ended, so the caller's clean-up sees every file that was written.
 */
export async function overlapped<I, R, T>(
  items: AsyncIterable<I>,
  limit: number,
  receive: (item: I) => Promise<R>,
  work: (received: R, index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  try {
    let index = 0;
    for await (const item of items) {
      const received = await receive(item);
      const at = index++;
      const task: Promise<void> = work(received, at)
        .then(
          (value) => {
            results[at] = value;
          },
          (error: unknown) => {
            failure ??= { error };
          },
        )
        .finally(() => running.delete(task));
      running.add(task);
      while (running.size >= limit && !failure) await Promise.race(running);
      if (failure) break;
    }
  } finally {
    // Also when the sequence or a receive threw: work started must end before anyone cleans up after it.
    await Promise.all(running);
  }
  if (failure) throw (failure as { error: unknown }).error;
  return results;
}
