import { Logger } from '@aws-lambda-powertools/logger';
import type { RuntimeConfig } from '../config/runtime-config.ts';

/** Structured JSON logs; one logger per function, named after its route group. */
export function createLogger(serviceName: string, config: Pick<RuntimeConfig, 'POWERTOOLS_LOG_LEVEL'>): Logger {
  return new Logger({ serviceName, logLevel: config.POWERTOOLS_LOG_LEVEL });
}
