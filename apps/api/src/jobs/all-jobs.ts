import type { FastifyInstance } from 'fastify';
import type { Job } from './runner';

/** Every background job the API runs (each one multi-process safe). */
export function allJobs(_app: FastifyInstance): Job[] {
  return [];
}
