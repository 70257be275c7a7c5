import { newId, unixNow } from './ids';
import type { CardOutcome } from './test-cards';
import type {
  Charge,
  Dispute,
  PaymentIntent,
  PaymentMethod,
  Refund,
  StripeEvent,
  StripeFile,
  StripeObject,
} from './stripe-objects';

export interface ThreeDSecureAttempt {
  token: string;
  paymentIntentId: string;
  paymentMethodId: string;
  returnUrl: string | null;
  /** Set once the page was answered, or the PaymentIntent moved on without it. */
  settled: boolean;
}

/** Who caused an event: Stripe puts the API request (and its idempotency key) on each event. */
export interface RequestInfo {
  id: string | null;
  idempotencyKey: string | null;
}

/**
 * Everything the sandbox knows, in memory: it is a development and test stand-in that starts
 * empty with the API (docs/decisions, "Stripe sandbox").
 */
export class SandboxState {
  readonly paymentIntents = new Map<string, PaymentIntent>();
  readonly paymentMethods = new Map<string, PaymentMethod>();
  /** What charging each PaymentMethod's card does (its test number's behaviour). */
  readonly cardOutcomes = new Map<string, CardOutcome>();
  readonly charges = new Map<string, Charge>();
  readonly refunds = new Map<string, Refund>();
  readonly disputes = new Map<string, Dispute>();
  /** Uploads, with their bytes in base64 (so the state file can keep them). */
  readonly files = new Map<string, { file: StripeFile; data: string }>();
  readonly threeDSecure = new Map<string, ThreeDSecureAttempt>();
  readonly events: StripeEvent[] = [];
  readonly eventsById = new Map<string, StripeEvent>();

  constructor(
    private readonly apiVersion: string,
    private readonly publish: (event: StripeEvent) => void,
    private readonly hasWebhookEndpoint: () => boolean,
  ) {}

  /** Records an event with a snapshot of the object (later changes do not alter it) and sends it. */
  emit(type: string, object: StripeObject, request: RequestInfo, previous?: Record<string, unknown>): StripeEvent {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: this.apiVersion,
      created: unixNow(),
      data: previous
        ? { object: structuredClone(object), previous_attributes: previous }
        : { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: this.hasWebhookEndpoint() ? 1 : 0,
      request: { id: request.id, idempotency_key: request.idempotencyKey },
      type,
    };
    this.events.push(event);
    this.eventsById.set(event.id, event);
    this.publish(event);
    return event;
  }
}
