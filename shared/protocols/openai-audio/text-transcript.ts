import { formValue, withFormValue } from '../../http/multipart-form.ts';
import type { FormRequest } from '../form-request.ts';

/**
 * OpenAI's gpt transcribe models, the diarizing one included (and their dated snapshots): they report what
 * they are billed by (tokens) in a json answer only, and their text answer is that json's `text`. whisper-1
 * keeps its formats: it is billed by seconds, which a text answer is metered by.
 */
const USAGE_ONLY_IN_JSON = /^(?:gpt-4o(?:-mini)?-transcribe(?:-diarize)?|gpt-transcribe)(?:-\d{4}-\d{2}-\d{2})?$/;

/** The content type OpenAI answers a text transcript with. */
const TEXT_TRANSCRIPT_TYPE = 'text/plain; charset=utf-8';

/** Whether the client asked for a plain-text transcript. */
export function asksForTextTranscript(request: FormRequest): boolean {
  return formValue(request.form, 'response_format') === 'text';
}

/**
 * The request for one upstream model: a text transcript asked of a model that reports its tokens in json
 * only is asked for as json (shown to the client as text: presentTextTranscript), else a text answer would
 * report nothing to bill. A streamed one is left as it is: its events report the tokens.
 */
export function withMeteredFormat(request: FormRequest, upstreamModel: string): FormRequest {
  if (request.stream === true || !asksForTextTranscript(request) || !USAGE_ONLY_IN_JSON.test(upstreamModel)) return request;
  return { ...request, form: withFormValue(request.form, 'response_format', 'json') };
}

/** A JSON transcript as the text transcript the client asked for: its `text` and a line break, as OpenAI writes one. */
export function presentTextTranscript(payload: Record<string, unknown>): { body: string; contentType: string } | undefined {
  return typeof payload.text === 'string' ? { body: `${payload.text}\n`, contentType: TEXT_TRANSCRIPT_TYPE } : undefined;
}
