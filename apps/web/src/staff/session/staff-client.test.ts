import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from '../../lib/save-blob';
import { ApiProblem } from '../../lib/api-error';
import { downloadFile, request, resumeSession, signIn, signOut, whenSignedOut } from './staff-client';

vi.mock('../../lib/save-blob', () => ({ saveBlob: vi.fn() }));

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const token = (n: number) => `${b64({ alg: 'ES256' })}.${b64({ sub: 'u1', dashboard_user: true, n })}.sig`;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const session = (n: number) =>
  json(200, {
    idToken: token(n),
    expiresAt: '2026-12-01T00:00:00.000Z',
    user: { email: 'elf@kringle.test', firstName: 'Buddy' },
  });

/**
 * The API as a signed-in staff member meets it: every run-sheet call says the token expired until `refresh` answers.
 */
function fakeApi(refresh: () => Response | Promise<Response>) {
  const authorizations: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = String(url).replace(/^.*\/api\/v1/, '');
      if (path === '/app-check/challenge') return json(404, { error: 'off', code: 'NOT_FOUND' });
      if (path === '/auth/sign-in') return session(1);
      if (path === '/auth/refresh') return refresh();
      const authorization = new Headers(init?.headers).get('authorization') ?? '';
      authorizations.push(authorization);
      return authorization === `Bearer ${token(2)}`
        ? json(200, { items: [] })
        : json(401, { error: 'Your session has ended.', code: 'UNAUTHENTICATED' });
    }),
  );
  return authorizations;
}

describe('the staff client renews its token mid-shift', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('retries once with the renewed token', async () => {
    const seen = fakeApi(() => session(2));
    await signIn('elf@kringle.test', 'x');
    expect((await request('/staff/run-sheet')).status).toBe(200);
    expect(seen).toEqual([`Bearer ${token(1)}`, `Bearer ${token(2)}`]);
  });

  it(
    'keeps staff signed in when the renewal cannot be had just now (a 429, the server down, offline, app ' + 'check)',
    async () => {
      const signedOut = vi.fn();
      whenSignedOut(signedOut);
      const answers = [
        () => json(429, { error: 'Too many attempts. Try again in 30 seconds.', code: 'RATE_LIMITED' }),
        () => json(503, { error: 'Something went wrong on our side. Please try again.', code: 'SERVICE_UNAVAILABLE' }),
        () => Promise.reject(new TypeError('offline')),
        // App check refusing the device is about the device, not the session.
        () => json(401, { error: 'Please reload the page and try again.', code: 'APP_CHECK_INVALID' }),
      ];
      for (const answer of answers) {
        fakeApi(answer);
        await signIn('elf@kringle.test', 'x');
        const failed = await request('/staff/run-sheet').catch((err: unknown) => err);
        expect(failed).toBeInstanceOf(ApiProblem);
        expect((failed as ApiProblem).code).not.toBe('UNAUTHENTICATED');
      }
      expect(signedOut).not.toHaveBeenCalled();
    },
  );

  it('a renewal answered after staff signed out is not taken: the call is not sent again with it', async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const seen = fakeApi(() => held.then(() => session(2)));
    await signIn('elf@kringle.test', 'x');
    const renewing = request('/staff/run-sheet').catch((err: unknown) => err);
    await vi.waitFor(() => expect(seen).toEqual([`Bearer ${token(1)}`]));
    await signOut();
    answer();
    expect(await renewing).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(seen).not.toContain(`Bearer ${token(2)}`);
  });

  it('signs staff out when the cookie is refused', async () => {
    const signedOut = vi.fn();
    whenSignedOut(signedOut);
    fakeApi(() => json(401, { error: 'Your session has ended.', code: 'UNAUTHENTICATED' }));
    await signIn('elf@kringle.test', 'x');
    await expect(request('/staff/run-sheet')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(signedOut).toHaveBeenCalledTimes(1);
  });
});

describe('a customer signed in to the family app in the same browser', () => {
  afterEach(() => vi.unstubAllGlobals());
  const customerToken = `${b64({ alg: 'ES256' })}.${b64({ sub: 'c1' })}.sig`;

  it('is not signed out by opening the staff app: the sign-in form shows, and their session stays', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const path = String(url).replace(/^.*\/api\/v1/, '');
        calls.push(path);
        if (path === '/auth/refresh')
          return json(200, {
            idToken: customerToken,
            expiresAt: '2026-12-01T00:00:00.000Z',
            user: { email: 'demo@kringle.test' },
          });
        return json(404, { error: 'off', code: 'NOT_FOUND' });
      }),
    );
    await expect(resumeSession()).rejects.toMatchObject({ code: 'STAFF_ONLY' });
    expect(calls).not.toContain('/auth/sign-out');
  });
});

describe('downloads', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('saves the file under the name the API gives, with the customer app’s saveBlob', async () => {
    const pdf = new Response('%PDF-', {
      status: 200,
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': 'attachment; filename="tax-invoice-KR-7K3Q9-0A1B2C.pdf"',
      },
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        String(url).endsWith('/app-check/challenge') ? json(404, { error: 'off', code: 'NOT_FOUND' }) : pdf,
      ),
    );
    await downloadFile('/staff/bookings/b1/receipt', 'application/pdf', 'tax-invoice.pdf');
    expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'tax-invoice-KR-7K3Q9-0A1B2C.pdf');
  });
});

/** The API by path, app check off (its challenge answers 404). */
const stubApi = (answer: (path: string) => Response) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = String(url).replace(/^.*\/api\/v1/, '');
      return path === '/app-check/challenge' ? json(404, { error: 'off', code: 'NOT_FOUND' }) : answer(path);
    }),
  );

describe('the one request path (lib/api-fetch.ts)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('renews a refused app-check token and sends the call once more, as the customer app does', async () => {
    const sent: string[] = [];
    let refusals = 1;
    stubApi((path) => {
      if (path === '/auth/sign-in') return session(2);
      sent.push(path);
      if (refusals-- > 0)
        return json(401, { error: 'Please reload the page and try again.', code: 'APP_CHECK_INVALID' });
      return json(200, { items: [] });
    });
    await signIn('elf@kringle.test', 'x');
    expect((await request('/staff/run-sheet')).status).toBe(200);
    expect(sent).toEqual(['/staff/run-sheet', '/staff/run-sheet']);
  });

  it('throws the API’s error body as an ApiProblem: message, code and details', async () => {
    const details = [{ path: 'firstName', message: 'Enter a first name.' }];
    stubApi((path) => {
      if (path === '/auth/sign-in') return session(2);
      return json(400, { error: 'Check the family’s details.', code: 'VALIDATION_FAILED', details });
    });
    await signIn('elf@kringle.test', 'x');
    const failed = (await request('/staff/walk-ins', { method: 'POST', body: '{}' }).catch(
      (err: unknown) => err,
    )) as ApiProblem;
    expect(failed).toBeInstanceOf(ApiProblem);
    expect(failed).toMatchObject({
      message: 'Check the family’s details.',
      code: 'VALIDATION_FAILED',
      details,
      status: 400,
      data: { error: 'Check the family’s details.', code: 'VALIDATION_FAILED', details },
    });
  });
});

describe('the staff client and app-check proofs (decision 0048)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('signs in when the API asks for a fresh proof: it fetches one and sends the sign-in once more', async () => {
    let signIns = 0;
    stubApi((path) => {
      if (path === '/auth/sign-in')
        return ++signIns === 1
          ? json(401, { error: 'This app needs to verify itself again. Please try again.', code: 'APP_CHECK_INVALID' })
          : session(1);
      return json(404, { error: 'not here', code: 'NOT_FOUND' });
    });
    await expect(signIn('elf@kringle.test', 'x')).resolves.toMatchObject({
      kind: 'signed-in',
      user: { email: 'elf@kringle.test' },
    });
    expect(signIns).toBe(2);
  });
});

describe('photo uploads through the staff client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it(
    'sends a FormData body through the transport given, with the token and without a JSON type, renewing the token ' +
      'once',
    async () => {
      fakeApi(() => session(2));
      await signIn('elf@kringle.test', 'x');
      const sent: { auth: string | null; type: string | null; body: unknown }[] = [];
      const transport = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
        const headers = new Headers(init?.headers);
        sent.push({ auth: headers.get('authorization'), type: headers.get('content-type'), body: init?.body });
        return headers.get('authorization') === `Bearer ${token(2)}`
          ? json(201, { items: [] })
          : json(401, { error: 'Your session has ended.', code: 'UNAUTHENTICATED' });
      }) as unknown as typeof fetch;
      const form = new FormData();
      form.append('files', new Blob(['jpeg'], { type: 'image/jpeg' }), 'IMG_0001.jpg');
      expect(
        (await request('/staff/photos/batch?locationId=x', { method: 'POST', body: form, fetchFn: transport })).status,
      ).toBe(201);
      expect(sent.map((s) => s.auth)).toEqual([`Bearer ${token(1)}`, `Bearer ${token(2)}`]);
      expect(sent.every((s) => s.type === null && s.body === form)).toBe(true);
    },
  );
});
