export interface SseEvent {
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/** Reads a text/event-stream body as fetch() gives it (what the web app does), event by event. */
export function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const queued: SseEvent[] = [];
  let done = false;
  const pump = async (): Promise<void> => {
    const { value, done: finished } = await reader.read();
    if (finished) return void (done = true);
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const ev: SseEvent = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) ev.comment = line.slice(1).trim();
        else {
          const [field, ...rest] = line.split(':');
          (ev as Record<string, string>)[field!] = rest.join(':').trimStart();
        }
      }
      queued.push(ev);
    }
  };
  return {
    /** The next event matching `where`, within `ms`. */
    async next(where: (e: SseEvent) => boolean = () => true, ms = 2000): Promise<SseEvent> {
      const until = Date.now() + ms;
      for (;;) {
        const i = queued.findIndex(where);
        if (i >= 0) return queued.splice(i, 1)[0]!;
        if (done) throw new Error('the stream ended');
        const left = until - Date.now();
        if (left <= 0) throw new Error(`no such event within ${ms} ms`);
        await Promise.race([pump(), new Promise((resolve) => setTimeout(resolve, left))]);
      }
    },
    /** Resolves when the stream ends (true) or after `ms` (false). */
    async ended(ms: number): Promise<boolean> {
      const until = Date.now() + ms;
      while (!done && Date.now() < until)
        await Promise.race([pump(), new Promise((resolve) => setTimeout(resolve, until - Date.now()))]);
      return done;
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}
