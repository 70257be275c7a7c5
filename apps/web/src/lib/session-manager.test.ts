import { describe, expect, it, vi } from 'vitest';
import { ApiProblem } from './api-error';
import { callWithSession, createSessionManager, type CallSession } from './session-manager';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answered = (idToken: string) => json(200, { idToken, user: { email: 'holly@example.com' } });
type Session = { idToken: string; user: { email: string } };

/**
 * A manager whose fetch answers the refresh with `refresh`, the sign-out with a 204; `foreign-*` tokens are foreign.
 */
function manager(refresh: () => Promise<Response> | Response) {
  const calls: string[] = [];
  const fetchFn = vi.fn(async (url: string) => {
    calls.push(String(url));
    return String(url).endsWith('/auth/refresh') ? refresh() : new Response(null, { status: 204 });
  }) as unknown as typeof fetch;
  const sessions = createSessionManager<Session>({
    access: { apiBaseUrl: '/api/v1', fetchFn, getAppCheckToken: async () => null },
    readSession: async (body) => (typeof (body as Session).idToken === 'string' ? (body as Session) : null),
    isOwnToken: (idToken) => !idToken.startsWith('foreign'),
    words: { unreachable: 'Not reachable.', fallback: 'Something went wrong.' },
  });
  const handlers = { keep: vi.fn(), refuse: vi.fn() };
  return { sessions, calls, handlers };
}

describe('the session manager: one refresh rule for both apps', () => {
  it('renews once for parallel callers and keeps the session', async () => {
    const { sessions, calls, handlers } = manager(() => answered('t2'));
    const tokens = await Promise.all([1, 2, 3].map(() => sessions.renew(handlers)));
    expect(tokens).toEqual(['t2', 't2', 't2']);
    expect(calls).toEqual(['/api/v1/auth/refresh']);
    expect(handlers.keep).toHaveBeenCalledTimes(1);
  });

  it('tells "gone" (a 401 about the session) from "not now" (offline, 5xx, 429, app check, unreadable)', async () => {
    expect(await manager(() => json(401, { error: 'Ended.', code: 'UNAUTHENTICATED' })).sessions.trade()).toEqual({
      kind: 'gone',
    });
    const notNow = [
      () => Promise.reject(new TypeError('offline')),
      () => json(503, { error: 'Down.', code: 'SERVICE_UNAVAILABLE' }),
      () => json(429, { error: 'Too many attempts.', code: 'RATE_LIMITED' }),
      () => json(401, { error: 'Reload.', code: 'APP_CHECK_INVALID' }),
      () => json(200, { user: {} }),
    ];
    for (const answer of notNow) {
      const { sessions, handlers } = manager(answer);
      const failed = await sessions.renew(handlers).catch((err: unknown) => err);
      expect(failed).toBeInstanceOf(ApiProblem);
      expect(handlers.keep).not.toHaveBeenCalled();
    }
  });

  it("refuses the other app's session: renew answers null and the app refuses it", async () => {
    const { sessions, handlers } = manager(() => answered('foreign-1'));
    expect(await sessions.renew(handlers)).toBeNull();
    expect(handlers.refuse).toHaveBeenCalledWith(expect.objectContaining({ idToken: 'foreign-1' }));
    expect(handlers.keep).not.toHaveBeenCalled();
  });

  it('a sign-out wins over a refresh in flight: its answer is dropped, a later renewal does not join it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { sessions, calls, handlers } = manager(() => held.then(() => answered('t2')));
    const early = sessions.renew(handlers);
    await vi.waitFor(() => expect(calls).toEqual(['/api/v1/auth/refresh']));
    await sessions.signOut();
    const later = sessions.renew(handlers);
    release();
    expect(await early).toBeNull();
    expect(await later).toBe('t2');
    expect(calls).toEqual(['/api/v1/auth/refresh', '/api/v1/auth/sign-out', '/api/v1/auth/refresh']);
    expect(handlers.keep).toHaveBeenCalledTimes(1);
  });

  it('tells the server of a sign-out only when asked', async () => {
    const { sessions, calls } = manager(() => answered('t2'));
    await sessions.signOut({ callServer: false });
    expect(calls).toEqual([]);
    await sessions.signOut();
    expect(calls).toEqual(['/api/v1/auth/sign-out']);
  });
});

describe('callWithSession: one retry rule for both apps', () => {
  type Answer = { status: number; appCheckRetried: boolean };
  function session(token: string | null, renew: () => Promise<string | null>): CallSession & { ended: number } {
    const s = {
      token: () => token,
      renewFirst: () => !token,
      renew: vi.fn(renew),
      end: vi.fn(async () => void s.ended++),
      ended: 0,
    };
    return s;
  }

  it('renews once on a 401 and sends once more with the fresh token', async () => {
    const s = session('t1', async () => 't2');
    const sent: (string | null)[] = [];
    const call = await callWithSession(s, async (token): Promise<Answer> => {
      sent.push(token);
      return { status: token === 't2' ? 200 : 401, appCheckRetried: false };
    });
    expect(call).toEqual({ kind: 'answered', answer: { status: 200, appCheckRetried: false } });
    expect(sent).toEqual(['t1', 't2']);
  });

  it('renews before sending when there is no fresh token', async () => {
    const s = session(null, async () => 't2');
    const sent: (string | null)[] = [];
    await callWithSession(
      s,
      async (token): Promise<Answer> => (sent.push(token), { status: 200, appCheckRetried: false }),
    );
    expect(sent).toEqual(['t2']);
  });

  it('does not renew on top of an app-check retry, nor twice', async () => {
    const s = session('t1', async () => 't2');
    const retried = await callWithSession(s, async (): Promise<Answer> => ({ status: 401, appCheckRetried: true }));
    expect(retried.kind).toBe('answered');
    expect(s.renew).not.toHaveBeenCalled();
    const sent: (string | null)[] = [];
    const twice = await callWithSession(s, async (token): Promise<Answer> => {
      sent.push(token);
      return { status: 401, appCheckRetried: false };
    });
    expect(twice).toEqual({ kind: 'answered', answer: { status: 401, appCheckRetried: false } });
    expect(sent).toEqual(['t1', 't2']);
    expect(s.renew).toHaveBeenCalledTimes(1);
  });

  it('ends the session here when the renewal finds it gone, with the answer that was refused', async () => {
    const s = session('t1', async () => null);
    const call = await callWithSession(s, async (): Promise<Answer> => ({ status: 401, appCheckRetried: false }));
    expect(call).toEqual({ kind: 'signed-out', answer: { status: 401, appCheckRetried: false } });
    expect(s.ended).toBe(1);
  });

  it('keeps the session when the renewal cannot be had now, and does not send again', async () => {
    const problem = new Error('not now');
    const s = session('t1', async () => Promise.reject(problem));
    const send = vi.fn(async (): Promise<Answer> => ({ status: 401, appCheckRetried: false }));
    expect(await callWithSession(s, send)).toEqual({ kind: 'unavailable', problem });
    expect(send).toHaveBeenCalledTimes(1);
    expect(s.ended).toBe(0);
  });
});
