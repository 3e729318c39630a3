import * as z from 'zod';

/** A legacy completion, or one chunk of its stream, leniently: only what metering reads. */
export const completionSchema = z.looseObject({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(z.looseObject({ index: z.number().nullish(), text: z.string().nullish(), finish_reason: z.string().nullish() }))
    .nullish(),
  usage: z.unknown(),
  error: z.looseObject({ message: z.string().nullish(), type: z.string().nullish(), code: z.unknown() }).nullish(),
});
export type Completion = z.infer<typeof completionSchema>;
