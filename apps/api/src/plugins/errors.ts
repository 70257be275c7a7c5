import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_CATALOGUE } from '@kringle/contracts/error-catalogue';
import type { ErrorBody } from '@kringle/contracts/errors';
import { isDatabaseUnavailable } from '../db/client';
import { AppError, type ErrorDetail } from '../lib/app-error';
import { errors } from '../lib/errors';

function send(reply: FastifyReply, status: number, body: ErrorBody, headers?: Record<string, string>) {
  if (headers) reply.headers(headers);
  // Every 5xx passes here (AppError 503s, the database unavailable, the unexpected): the Live page's count.
  if (status >= 500) reply.server.serverErrors.record();
  // Sent as a string: the body is built here in the contract's shape, so the route's response schema
  // has nothing to check (a drop day answers thousands of 409s a second).
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

function validationDetails(error: FastifyError): ErrorDetail[] {
  const where = error.validationContext ?? 'body';
  return (error.validation ?? []).map((issue) => ({
    path: [where, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
    message: issue.message ?? 'Invalid value',
  }));
}

/** Fastify's own 4xx errors (bad JSON, wrong media type, body too large) in API.md's shape. */
function fromFastifyError(error: FastifyError): AppError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.malformedJson();
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return errors.malformedJson();
  }
  return null;
}

/** The one place that turns errors into `{error, code, details}`; internals never leave the server. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return send(
        reply,
        error.statusCode,
        { error: error.message, code: error.code, details: error.details },
        error.headers,
      );
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return send(reply, 400, {
        error: ERROR_CATALOGUE.VALIDATION_FAILED.text,
        code: 'VALIDATION_FAILED',
        details: validationDetails(error),
      });
    }
    const known = fromFastifyError(error);
    if (known) return send(reply, known.statusCode, { error: known.message, code: known.code, details: known.details });
    if (isDatabaseUnavailable(error)) {
      // PostgreSQL restarting or unreachable: transactions leave nothing half-done, so the client may retry.
      request.log.warn({ err: error }, 'database unavailable');
      return send(
        reply,
        503,
        { error: ERROR_CATALOGUE.SERVICE_UNAVAILABLE.text, code: 'SERVICE_UNAVAILABLE' },
        { 'retry-after': '5' },
      );
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
    } else if (error.statusCode && error.statusCode < 500) {
      return send(reply, error.statusCode, { error: ERROR_CATALOGUE.BAD_REQUEST.text, code: 'BAD_REQUEST' });
    } else {
      request.log.error({ err: error }, 'unhandled error');
    }
    return send(reply, 500, { error: ERROR_CATALOGUE.INTERNAL.text, code: 'INTERNAL' });
  });
});
