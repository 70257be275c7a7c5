import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../lib/api-error';
import { batchesOf, fileProgress, sendHalvingOnTimeout, withRetries } from './photo-upload';

const problem = (status: number | 'FETCH_ERROR') => new ApiProblem({ status, data: { error: 'no', code: 'X' } });

describe('photo uploads', () => {
  it('cuts a sequence into requests by count and bytes, keeping the shooting order', () => {
    const files = [5, 5, 5, 20, 1, 1].map((size, i) => ({ size, i }));
    expect(batchesOf(files, 2, 100).map((b) => b.map((f) => f.i))).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
    expect(batchesOf(files, 10, 20).map((b) => b.map((f) => f.i))).toEqual([[0, 1, 2], [3], [4, 5]]);
    expect(batchesOf([], 10, 20)).toEqual([]);
  });

  it('spreads a request’s bytes sent over its files in order', () => {
    expect(fileProgress([100, 100], 0, 210)).toEqual([0, 0]);
    expect(fileProgress([100, 100], 105, 210)).toEqual([1, 0]);
    expect(fileProgress([100, 300], 210, 420)).toEqual([1, 1 / 3]);
    expect(fileProgress([100, 300], 420, 420)).toEqual([1, 1]);
  });

  it('sends again after a dropped connection, a 5xx or a 408, not after a refusal', async () => {
    const waits: number[] = [];
    const wait = async (ms: number) => void waits.push(ms);
    let tries = 0;
    await expect(
      withRetries(
        async () => {
          tries++;
          if (tries < 3) throw problem(tries === 1 ? 'FETCH_ERROR' : 503);
          return 'ok';
        },
        [10, 20],
        wait,
      ),
    ).resolves.toBe('ok');
    expect(waits).toEqual([10, 20]);
    tries = 0;
    await expect(
      withRetries(
        async () => {
          tries++;
          if (tries === 1) throw problem(408);
          return 'ok';
        },
        [10, 20],
        wait,
      ),
    ).resolves.toBe('ok');
    expect(tries).toBe(2);
    tries = 0;
    await expect(
      withRetries(
        async () => {
          tries++;
          throw problem(413);
        },
        [10, 20],
        wait,
      ),
    ).rejects.toThrow('no');
    expect(tries).toBe(1);
    tries = 0;
    await expect(
      withRetries(
        async () => {
          tries++;
          throw problem('FETCH_ERROR');
        },
        [10, 20],
        wait,
      ),
    ).rejects.toThrow('no');
    expect(tries).toBe(3);
  });

  it(
    'after a 408, sends the files again as two halves (halved again if need be), in order; a single file is retried ' +
      'as is',
    async () => {
      const waits: number[] = [];
      const wait = async (ms: number) => void waits.push(ms);
      const requests: number[][] = [];
      await sendHalvingOnTimeout(
        [1, 2, 3, 4, 5],
        async (part) => {
          requests.push(part);
          if (part.length === 5 || part.join() === '4,5') throw problem(408);
        },
        [10, 20],
        wait,
      );
      expect(requests).toEqual([[1, 2, 3, 4, 5], [1, 2, 3], [4, 5], [4], [5]]);
      expect(waits).toEqual([]);

      requests.length = 0;
      await expect(
        sendHalvingOnTimeout(
          [7],
          async (part) => {
            requests.push(part);
            throw problem(408);
          },
          [10],
          wait,
        ),
      ).rejects.toThrow('no');
      expect(requests).toEqual([[7], [7]]);

      // Any other failure is retried whole, and a refusal stops everything after the halves that went.
      requests.length = 0;
      await expect(
        sendHalvingOnTimeout(
          [1, 2, 3, 4],
          async (part) => {
            requests.push(part);
            if (part.length === 4) throw problem(408);
            if (part[0] === 3) throw problem(413);
          },
          [10],
          wait,
        ),
      ).rejects.toThrow('no');
      expect(requests).toEqual([
        [1, 2, 3, 4],
        [1, 2],
        [3, 4],
      ]);
    },
  );
});
