import { formValue, withFormValue } from '../../http/multipart-form.ts';
import type { FormRequest } from '../form-request.ts';

/**
 * OpenAI's gpt-4o transcribe models (and their dated snapshots): they answer json or text only, and report
 * the tokens they are billed by in json only. whisper-1 and the diarizing model keep their own formats.
 */
const TOKENS_ONLY_IN_JSON = /^gpt-4o(?:-mini)?-transcribe(?:-\d{4}-\d{2}-\d{2})?$/;

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
  if (request.stream === true || !asksForTextTranscript(request) || !TOKENS_ONLY_IN_JSON.test(upstreamModel)) return request;
  return { ...request, form: withFormValue(request.form, 'response_format', 'json') };
}

/** A JSON transcript as the text transcript the client asked for: its `text` and a line break, as OpenAI writes one. */
export function presentTextTranscript(payload: Record<string, unknown>): { body: string; contentType: string } | undefined {
  return typeof payload.text === 'string' ? { body: `${payload.text}\n`, contentType: TEXT_TRANSCRIPT_TYPE } : undefined;
}
