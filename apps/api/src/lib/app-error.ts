import type { ErrorCode } from '@kringle/contracts/errors';

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The one error type services throw; the error handler turns it into API.md's error body. */
export class AppError extends Error {
  declare readonly code: ErrorCode;
  declare readonly statusCode: number;
  declare readonly details?: ErrorDetail[];
  declare readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    statusCode: number,
    message: string,
    details?: ErrorDetail[],
    headers?: Record<string, string>,
  ) {
    // An answer the contract lists (a lost race, a bad input), not a bug: no stack trace. On drop day
    // thousands of 409s a second each paid for a stack walk nobody reads.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'AppError';
    this.code = code;
    this.statusCode = statusCode;
    if (details !== undefined) this.details = details;
    if (headers !== undefined) this.headers = headers;
  }
}
