import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Security headers and CORS limited to the configured app origins. */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  const stripe = ['https://js.stripe.com', 'https://*.stripe.com'];
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...stripe, 'https://www.googletagmanager.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", ...stripe, 'https://*.google-analytics.com', 'http://127.0.0.1:*', 'http://localhost:*'],
        frameSrc: ["'self'", ...stripe, 'http://127.0.0.1:*', 'http://localhost:*'],
        workerSrc: ["'self'", 'blob:'],
        formAction: ["'self'", 'http://127.0.0.1:*', 'http://localhost:*'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: app.config.NODE_ENV === 'production',
  });
  await app.register(cors, {
    origin: app.config.APP_ORIGINS,
    credentials: true,
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-App-Check', 'Idempotency-Key'],
    exposedHeaders: ['Retry-After', 'X-Request-Id'],
    maxAge: 600,
  });
});
