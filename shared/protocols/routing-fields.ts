import { z } from 'zod';

/** The routing-only fields of a JSON generation request (spec 2.2): consumed by the gateway, never sent upstream. */
export const routingFieldsShape = {
  models: z.array(z.string().min(1)).optional(),
  route: z.literal('fallback').optional(),
  provider: z.record(z.string(), z.unknown()).nullish(),
};
