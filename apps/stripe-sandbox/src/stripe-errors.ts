export type StripeErrorType = 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error';

export interface StripeErrorInit {
  status: number;
  type: StripeErrorType;
  message: string;
  code?: string;
  param?: string;
  declineCode?: string;
  /** Extra fields of the error body, e.g. `payment_intent` on a card error. */
  extra?: Record<string, unknown>;
  /**
   * Stripe saves an idempotent result only once the endpoint started executing: a request that
   * failed parameter validation can be retried with the same key and other parameters.
   */
  saveForIdempotency?: boolean;
}

/** An error answered in Stripe's body shape `{ error: { type, code, message, param, … } }`. */
export class StripeError extends Error {
  readonly status: number;
  readonly type: StripeErrorType;
  readonly code?: string;
  readonly param?: string;
  readonly declineCode?: string;
  readonly extra?: Record<string, unknown>;
  readonly saveForIdempotency: boolean;

  constructor(init: StripeErrorInit) {
    super(init.message);
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.param = init.param;
    this.declineCode = init.declineCode;
    this.extra = init.extra;
    this.saveForIdempotency = init.saveForIdempotency ?? true;
  }

  toBody(requestId: string): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = { type: this.type, message: this.message };
    if (this.code) {
      error.code = this.code;
      error.doc_url = `https://stripe.com/docs/error-codes/${this.code.replaceAll('_', '-')}`;
    }
    if (this.declineCode) error.decline_code = this.declineCode;
    if (this.param) error.param = this.param;
    error.request_log_url = `https://dashboard.stripe.com/test/logs/${requestId}`;
    return { error: { ...error, ...this.extra } };
  }
}

export function invalidParam(param: string, message: string, code = 'parameter_invalid_string'): StripeError {
  return new StripeError({
    status: 400,
    type: 'invalid_request_error',
    code,
    param,
    message,
    saveForIdempotency: false,
  });
}

export function missingParam(param: string): StripeError {
  return new StripeError({
    status: 400,
    type: 'invalid_request_error',
    code: 'parameter_missing',
    param,
    message: `Missing required param: ${param}.`,
    saveForIdempotency: false,
  });
}

export function unknownParam(param: string): StripeError {
  return new StripeError({
    status: 400,
    type: 'invalid_request_error',
    code: 'parameter_unknown',
    param,
    message: `Received unknown parameter: ${param}`,
    saveForIdempotency: false,
  });
}

export function noSuchResource(kind: string, id: string, param = 'id'): StripeError {
  return new StripeError({
    status: 404,
    type: 'invalid_request_error',
    code: 'resource_missing',
    param,
    message: `No such ${kind}: '${id}'`,
  });
}

export function unexpectedState(message: string): StripeError {
  return new StripeError({
    status: 400,
    type: 'invalid_request_error',
    code: 'payment_intent_unexpected_state',
    message,
  });
}
