import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import { readEventData } from '../../canonical/read-payload.ts';
import { asJsonObject } from '../../core/json-object.ts';
import { ZERO_USAGE } from '../../core/token-usage.ts';
import type { EndpointApi } from '../api-bridge.ts';
import { nativeJsonRequest } from '../native-json-request.ts';
import { readAudioTokenUsage } from './audio-usage.ts';
import { spokenCharacters, type SpeechRequest } from './speech-request.ts';

/**
 * OpenAI's speech API (`POST /audio/speech`), native. The audio streams back as it is made, byte for byte,
 * with the provider's content type (`audio/mpeg`, `audio/wav`, …); with `stream_format: "sse"` it comes as
 * events (`speech.audio.delta`, then `speech.audio.done` with the token usage). Billed by the characters
 * spoken, and by tokens where the model reports them (else its prompt is estimated). A 200 of JSON holds
 * no audio: 502 `upstream_invalid_response` (its `error.message` kept), failed over, not relayed as audio.
 */
export function speechApi(request: SpeechRequest): EndpointApi {
  const characters = spokenCharacters(request);
  return {
    native: true,
    request: (body, upstreamModel) => nativeJsonRequest('/audio/speech', body, upstreamModel),
    // Audio is bytes; JSON in a 200 is no audio (an error in a success's clothes), read as JSON to be refused.
    answerKind: (response) => {
      const type = response.headers.get('content-type') ?? '';
      return type.startsWith('text/event-stream') ? 'stream' : type.startsWith('application/json') ? 'json' : 'bytes';
    },
    isCompleteAnswer: () => false,
    readResponse: () => ({ id: '', model: '', content: [], finish: 'stop', units: characters }),
    createBytesMeter: () => ({ push: () => undefined, end: () => ({ units: characters }) }),
    createStreamReader: () => ({
      push(data) {
        const event = asJsonObject(readEventData(data));
        if (event?.type !== 'speech.audio.done') return [];
        // The characters are billed whatever the event says; tokens only as reported.
        const events: CanonicalEvent[] = [{ type: 'usage', usage: { ...(readAudioTokenUsage(event.usage) ?? ZERO_USAGE), units: characters } }];
        return events;
      },
    }),
  };
}
