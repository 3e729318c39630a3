import { Logger } from '@aws-lambda-powertools/logger';

/** Structured JSON logs; one logger per function, named after its route group. */
export function createLogger(serviceName: string): Logger {
  return new Logger({ serviceName });
}
