import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const REFRESH_COOKIE = 'kringle_refresh';
/** Sent only to /api/v1/auth/* (refresh and sign-out), never with ordinary API calls. */
export const REFRESH_COOKIE_PATH = '/api/v1/auth';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function cookieOptions(request: FastifyRequest): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'strict',
    path: REFRESH_COOKIE_PATH,
    // Browsers drop Secure cookies on plain http, which local development uses.
    secure: !LOCAL_HOSTS.has(request.hostname.toLowerCase()),
  };
}

export function readRefreshCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies[REFRESH_COOKIE];
  return value ? value : undefined;
}

export function setRefreshCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  expiresAt: Date,
  now: Date,
): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  reply.setCookie(REFRESH_COOKIE, token, { ...cookieOptions(request), maxAge });
}

export function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, cookieOptions(request));
}
