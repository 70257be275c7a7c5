import type pg from 'pg';
import type { Config } from '../config/config';
import type { Secrets } from '../config/secrets';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import type { AnswerLane } from '../plugins/answer-lane';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    secrets: Secrets;
    db: Db;
    pool: pg.Pool;
    clock: Clock;
    answerLane: AnswerLane;
  }
}
