import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { processUsageBatch } from '../../shared/usage-writer/process-usage-batch.ts';
import { createUsageWriterDeps } from '../../shared/wiring/create-usage-writer.ts';
import { createLogger } from '../../shared/wiring/logger.ts';

/** The usage writer: SQS batches of usage records → generation table, project spend, usage files. */
const config = loadRuntimeConfig(process.env);
const logger = createLogger('gateway-writer');
const deps = createUsageWriterDeps(config, (message, reason, error) =>
  logger.error('usage message failed', { messageId: message.messageId, receiveCount: message.attributes.ApproximateReceiveCount, reason, error }),
);

export const handler = middy<SQSEvent, SQSBatchResponse>().handler((event) => processUsageBatch(event, deps));
