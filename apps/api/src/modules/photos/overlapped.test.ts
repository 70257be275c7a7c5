import { describe, expect, it } from 'vitest';
import { overlapped } from './overlapped';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function* sequence<T>(items: T[], failAfter = Infinity) {
  for (const [i, item] of items.entries()) {
    if (i >= failAfter) throw new Error('connection dropped');
    yield item;
  }
}

describe('overlapped (receive the next file while the earlier ones are processed)', () => {
  it('works on a file while the next one is received', async () => {
    // The first file's work can only end once the second has been received: done one after
    // another, this never ends.
    const second = deferred();
    const run = overlapped(
      sequence([1, 2]),
      3,
      async (n) => {
        if (n === 2) second.resolve();
        return n;
      },
      async (n) => {
        if (n === 1) await second.promise;
        return n * 10;
      },
    );
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('one after another')), 2000));
    expect(await Promise.race([run, timeout])).toEqual([10, 20]);
  });

  it(
    'keeps at most `limit` in work, and the results in the order received whatever order the work ends ' + 'in',
    async () => {
      let inWork = 0;
      let most = 0;
      const results = await overlapped(
        sequence([1, 2, 3, 4, 5, 6, 7]),
        3,
        async (n) => n,
        async (n) => {
          inWork++;
          most = Math.max(most, inWork);
          await tick(n % 2 ? 30 : 5);
          inWork--;
          return n;
        },
      );
      expect(results).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(most).toBe(3);
    },
  );

  it('a failed work stops the reading, and its error comes once the other work started has ended', async () => {
    const received: number[] = [];
    const ended: number[] = [];
    const run = overlapped(
      sequence([1, 2, 3, 4, 5, 6]),
      3,
      async (n) => (received.push(n), n),
      async (n) => {
        await tick(n === 2 ? 5 : 40);
        if (n === 2) throw new Error('not a photo');
        ended.push(n);
        return n;
      },
    );
    await expect(run).rejects.toThrow('not a photo');
    expect(received).toEqual([1, 2, 3]);
    expect(ended.sort()).toEqual([1, 3]);
  });

  it('a sequence cut midway (or a refused file) throws only once the work already started has ended', async () => {
    const ended: number[] = [];
    const work = async (n: number) => {
      await tick(30);
      ended.push(n);
      return n;
    };
    await expect(overlapped(sequence([1, 2, 3], 2), 3, async (n) => n, work)).rejects.toThrow('connection dropped');
    expect(ended.sort()).toEqual([1, 2]);
    const refused = overlapped(
      sequence([4, 5, 6]),
      3,
      async (n) => {
        if (n === 5) throw new Error('too large');
        return n;
      },
      work,
    );
    await expect(refused).rejects.toThrow('too large');
    expect(ended.sort()).toEqual([1, 2, 4]);
  });
});
