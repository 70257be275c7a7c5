import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../lib/api-error';
import { batchesOf, fileProgress, withRetries } from './photo-upload';

const problem = (status: number | 'FETCH_ERROR') => new ApiProblem({ status, data: { error: 'no', code: 'X' } });

describe('photo uploads', () => {
  it('cuts a sequence into requests by count and bytes, keeping the shooting order', () => {
    const files = [5, 5, 5, 20, 1, 1].map((size, i) => ({ size, i }));
    expect(batchesOf(files, 2, 100).map((b) => b.map((f) => f.i))).toEqual([[0, 1], [2, 3], [4, 5]]);
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
      withRetries(async () => {
        tries++;
        if (tries < 3) throw problem(tries === 1 ? 'FETCH_ERROR' : 503);
        return 'ok';
      }, [10, 20], wait),
    ).resolves.toBe('ok');
    expect(waits).toEqual([10, 20]);
    tries = 0;
    await expect(withRetries(async () => { tries++; if (tries === 1) throw problem(408); return 'ok'; }, [10, 20], wait)).resolves.toBe('ok');
    expect(tries).toBe(2);
    tries = 0;
    await expect(withRetries(async () => { tries++; throw problem(413); }, [10, 20], wait)).rejects.toThrow('no');
    expect(tries).toBe(1);
    tries = 0;
    await expect(withRetries(async () => { tries++; throw problem('FETCH_ERROR'); }, [10, 20], wait)).rejects.toThrow('no');
    expect(tries).toBe(3);
  });
});
