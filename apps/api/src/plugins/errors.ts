import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody } from '@kringle/contracts/errors';
import { isDatabaseUnavailable } from '../db/client';
import { AppError, type ErrorDetail } from '../lib/app-error';

function send(reply: FastifyReply, status: number, body: ErrorBody, headers?: Record<string, string>) {
  if (headers) reply.headers(headers);
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
      return new AppError('PAYLOAD_TOO_LARGE', 413, 'That request is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'Send the request as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('VALIDATION_FAILED', 400, 'The request body is not valid JSON.', [{ path: 'body', message: 'Malformed JSON' }]);
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return new AppError('VALIDATION_FAILED', 400, 'The request body is not valid JSON.', [{ path: 'body', message: 'Malformed JSON' }]);
  }
  return null;
}

/** The one place that turns errors into `{error, code, details}`; internals never leave the server. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return send(reply, error.statusCode, { error: error.message, code: error.code, details: error.details }, error.headers);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return send(reply, 400, { error: 'Some of the details sent are not valid.', code: 'VALIDATION_FAILED', details: validationDetails(error) });
    }
    const known = fromFastifyError(error);
    if (known) return send(reply, known.statusCode, { error: known.message, code: known.code, details: known.details });
    if (isDatabaseUnavailable(error)) {
      // PostgreSQL restarting or unreachable: transactions leave nothing half-done, so the client may retry.
      request.log.warn({ err: error }, 'database unavailable');
      return send(reply, 503, { error: 'We are having a short technical problem. Please try again in a moment.', code: 'SERVICE_UNAVAILABLE' }, { 'retry-after': '5' });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
    } else if (error.statusCode && error.statusCode < 500) {
      return send(reply, error.statusCode, { error: 'That request could not be handled.', code: 'BAD_REQUEST' });
    } else {
      request.log.error({ err: error }, 'unhandled error');
    }
    return send(reply, 500, { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
  });
});
