import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { loadRuntimeConfig, type RuntimeConfig } from '../../shared/config/runtime-config.ts';
import { onFirstCall } from '../../shared/lambda/lambda-handlers.ts';
import { processUsageBatch } from '../../shared/usage-writer/process-usage-batch.ts';
import { createUsageWriterDeps } from '../../shared/wiring/create-usage-writer.ts';
import { createLogger } from '../../shared/wiring/logger.ts';

/** The usage writer: SQS batches of usage records → generation table, project spend, usage files. */
function createProcessor(config: RuntimeConfig) {
  const logger = createLogger('gateway-writer', config);
  const deps = createUsageWriterDeps(
    config,
    (message, reason, error) =>
      logger.error('usage message failed', { messageId: message.messageId, receiveCount: message.attributes.ApproximateReceiveCount, reason, error }),
    // Another project's upstream answered with an id this project's response already has: kept, not retrievable by it.
    (record) =>
      logger.warn('stored response id owned by another project', { responseId: record.upstreamId, projectId: record.projectId, provider: record.provider, requestId: record.requestId }),
  );
  return (event: SQSEvent) => processUsageBatch(event, deps);
}

/** The handler for a configuration (the local host's queue calls it with SQS-shaped batches). */
export function createHandler(config: RuntimeConfig) {
  return middy<SQSEvent, SQSBatchResponse>().handler(createProcessor(config));
}

/** Lambda's entry point: built from the environment on the first invocation. */
export const handler = middy<SQSEvent, SQSBatchResponse>().handler(onFirstCall(() => createProcessor(loadRuntimeConfig(process.env))));
