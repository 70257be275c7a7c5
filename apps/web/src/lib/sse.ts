/** The text/event-stream format, read from fetch() bodies (the live streams need headers EventSource cannot send). */

export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Splits what has arrived of a text/event-stream into complete messages and the unfinished rest
 * (the SSE format: blocks ending in a blank line, `field: value` lines, `:` comments ignored).
 */
export function parseSse(buffer: string): { messages: SseMessage[]; rest: string; retryMs?: number } {
  const messages: SseMessage[] = [];
  let retryMs: number | undefined;
  const text = buffer.replace(/\r\n?/g, '\n');
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
    }
    if (data.length) messages.push({ event, data: data.join('\n') });
  }
  return { messages, rest, retryMs };
}

/** Reads a text/event-stream body to its end: each message, and the server's `retry:` when it sends one. */
export async function readSse(
  body: ReadableStream<BufferSource>,
  on: { message: (m: SseMessage) => void; retry?: (ms: number) => void },
): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const parsed = parseSse(buffer + value);
    buffer = parsed.rest;
    if (parsed.retryMs) on.retry?.(parsed.retryMs);
    for (const m of parsed.messages) on.message(m);
  }
}
