import type { ErrorCode } from '@kringle/contracts/errors';

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The one error type services throw; the error handler turns it into API.md's error body. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly statusCode: number,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what = 'That') => new AppError('NOT_FOUND', 404, `${what} could not be found.`);
