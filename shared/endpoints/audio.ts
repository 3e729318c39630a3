import { jsonBody } from '../pipeline/generation-endpoint.ts';
import { speechApi } from '../protocols/openai-audio/speech-api.ts';
import { parseSpeechRequest, spokenCharacters } from '../protocols/openai-audio/speech-request.ts';
import { transcriptionApi } from '../protocols/openai-audio/transcription-api.ts';
import { parseTranscriptionRequest, transcriptionPromptText, transcriptionSecondsBound } from '../protocols/openai-audio/transcription-request.ts';
import { openAiApiEndpoint } from './openai-api-endpoint.ts';

/** POST /v1/audio/speech: text to speech, the audio streamed back as it is made. */
export const speechEndpoint = openAiApiEndpoint({
  name: 'audio.speech',
  modelKinds: ['audio'],
  parse: jsonBody(parseSpeechRequest),
  promptText: (request) => request.input,
  unitsBound: spokenCharacters,
  api: speechApi,
});

/** POST /v1/audio/transcriptions: an upload of audio, its transcript in the format asked for. */
export const transcriptionsEndpoint = openAiApiEndpoint({
  name: 'audio.transcriptions',
  modelKinds: ['audio'],
  parse: parseTranscriptionRequest,
  promptText: transcriptionPromptText,
  unitsBound: transcriptionSecondsBound,
  api: (request) => transcriptionApi('transcriptions', request),
});

/** POST /v1/audio/translations: an upload of audio, its English translation in the format asked for. */
export const translationsEndpoint = openAiApiEndpoint({
  name: 'audio.translations',
  modelKinds: ['audio'],
  parse: parseTranscriptionRequest,
  promptText: transcriptionPromptText,
  unitsBound: transcriptionSecondsBound,
  api: (request) => transcriptionApi('translations', request),
});
