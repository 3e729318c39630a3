import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWav, readUpload } from '../support/binary-files.ts';
import { startFakeOpenAiUpstream, sendJson, sendSse, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { generationOf } from '../support/generation-lookup.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;

const models = [
  { slug: 'openai/tts-1', kind: 'audio', characterMicrosPer1k: 15_000 },
  { slug: 'openai/whisper-1', kind: 'audio', audioSecondMicros: 100 },
  { slug: 'openai/gpt-4o-transcribe', kind: 'audio', inputMicrosPer1k: 2500, outputMicrosPer1k: 10_000 },
  { slug: 'openai/gpt-4o-mini-transcribe-2025-03-20', kind: 'audio', inputMicrosPer1k: 2500, outputMicrosPer1k: 10_000 },
];

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  key = await createProjectWithKey(gateway, { projectId: 'voices', baseUrl: upstream.baseUrl, models });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

function sendText(response: ServerResponse, contentType: string, text: string): void {
  response.writeHead(200, { 'content-type': contentType }).end(text);
}

describe('POST /v1/audio/speech through the openai SDK', () => {
  it('streams the audio back as it is made, with the provider content type, and prices the characters spoken', async () => {
    const audio = makeWav(1.5);
    let releaseRest: () => void = () => undefined;
    const restMayFollow = new Promise<void>((resolve) => (releaseRest = resolve));
    upstream.answerWith(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'audio/wav' });
      response.write(audio.subarray(0, 1000));
      // The rest only once the client has the first bytes: the answer is streamed, not buffered.
      await restMayFollow;
      response.end(audio.subarray(1000));
    });
    const input = 'Héllo wörld, this is a test of speech.';
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'speech-1' } });

    const answer = await client.audio.speech.create({ model: 'openai/tts-1', voice: 'alloy', input, response_format: 'wav' });
    expect(answer.headers.get('content-type')).toBe('audio/wav');
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    chunks.push(first.value ?? new Uint8Array());
    releaseRest();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);

    expect(Buffer.concat(chunks)).toEqual(audio);
    expect(upstream.received.at(-1)).toMatchObject({ path: '/v1/audio/speech', body: { model: 'tts-1', voice: 'alloy', input, response_format: 'wav' } });
    const record = await generationOf(gateway, key, 'speech-1');
    expect(record).toMatchObject({ endpoint: 'audio.speech', status: 'completed', billed_units: { requests: 1, characters: [...input].length } });
    expect(record.total_cost).toBeCloseTo(([...input].length * 15_000) / 1e9, 12);
  });

  it('fails the client body when the provider breaks off mid-audio, and records the request failed once', async () => {
    upstream.answerWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.write(Buffer.alloc(2048, 0xff));
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const answer = await gateway.openai(key, { defaultHeaders: { 'x-request-id': 'speech-broken' } }).audio.speech.create({ model: 'openai/tts-1', voice: 'alloy', input: 'Cut short.' });
    await expect(answer.arrayBuffer()).rejects.toThrow();
    const record = await generationOf(gateway, key, 'speech-broken');
    expect(record).toMatchObject({ status: 'failed', error_code: 'upstream_stream_interrupted', billed_units: { requests: 1, characters: 10 } });
  });

  it('answers a 200 of JSON in place of audio with 502 upstream_invalid_response, keeping its message, and records it failed', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, { error: { message: 'The voice service is down.', type: 'server_error' } }));
    const refusal = await gateway.openai(key, { defaultHeaders: { 'x-request-id': 'speech-json' } }).audio.speech.create({ model: 'openai/tts-1', voice: 'alloy', input: 'Hello.' }).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect((refusal as Error).message).toContain('The voice service is down.');
    expect(await generationOf(gateway, key, 'speech-json')).toMatchObject({ status: 'failed', error_code: 'upstream_invalid_response' });
  });

  it("refuses a request without a voice with 400 in OpenAI's words, before any upstream call", async () => {
    const before = upstream.received.length;
    const refusal = await gateway
      .openai(key)
      // @ts-expect-error no voice, as a careless client sends it
      .audio.speech.create({ model: 'openai/tts-1', input: 'Hello.' })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'invalid_request_body', param: 'voice', error: { message: "Missing required parameter: 'voice'." } });
    expect(upstream.received.length).toBe(before);
  });

  it('passes a custom voice given as {"id": …} to the provider', async () => {
    upstream.answerWith((_request, response) => void response.writeHead(200, { 'content-type': 'audio/mpeg' }).end(Buffer.from([0xff, 0xf3])));
    await gateway.openai(key).audio.speech.create({ model: 'openai/tts-1', voice: { id: 'voice_1234' }, input: 'Hello.' });
    expect(upstream.received.at(-1)?.body).toMatchObject({ voice: { id: 'voice_1234' } });
  });

  it('relays the provider refusing an unknown response_format as its own 400', async () => {
    upstream.answerWith((_request, response) =>
      sendJson(response, 400, { error: { message: "Invalid value: 'ogg'. Supported values are: 'mp3', 'opus', 'aac', 'flac', 'wav', and 'pcm'.", type: 'invalid_request_error', param: 'response_format', code: 'invalid_value' } }),
    );
    const refusal = await gateway
      .openai(key)
      // @ts-expect-error a format the provider does not know
      .audio.speech.create({ model: 'openai/tts-1', voice: 'alloy', input: 'x', response_format: 'ogg' })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 400, param: 'response_format' });
  });
});

describe('POST /v1/audio/transcriptions through the openai SDK', () => {
  it('uploads the WAV byte for byte and bills the seconds its header gives when the answer reports none', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('other/openai-audio-transcriptions-json.json')));
    const wav = makeWav(2.5);
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'transcribe-wav' } });

    const answer = await client.audio.transcriptions.create({ model: 'openai/whisper-1', file: await toFile(wav, 'tone.wav', { type: 'audio/wav' }), language: 'en' });

    expect(answer.text).toBe((JSON.parse(readFixture('other/openai-audio-transcriptions-json.json')) as { text: string }).text);
    const received = upstream.received.at(-1);
    expect(received?.path).toBe('/v1/audio/transcriptions');
    const upload = await readUpload(received?.raw ?? Buffer.alloc(0), received?.headers['content-type']);
    expect(upload.get('file')).toEqual([{ filename: 'tone.wav', type: 'audio/wav', bytes: wav }]);
    expect(upload.get('model')).toEqual(['whisper-1']);
    expect(upload.get('language')).toEqual(['en']);
    const record = await generationOf(gateway, key, 'transcribe-wav');
    expect(record).toMatchObject({ endpoint: 'audio.transcriptions', billed_units: { audio_seconds: 3 } });
    expect(record.total_cost).toBeCloseTo(0.0003, 12);
  });

  it('bills the seconds a verbose_json answer reports', async () => {
    const recorded = readFixture('other/openai-audio-transcriptions-verbose-json.json');
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'transcribe-verbose' } });
    const answer = await client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(Buffer.from('not really mp3 \xff\xfe'), 'galileo.mp3', { type: 'audio/mpeg' }),
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    });
    expect(answer).toEqual(JSON.parse(recorded));
    const upload = await readUpload(upstream.received.at(-1)?.raw ?? Buffer.alloc(0), upstream.received.at(-1)?.headers['content-type']);
    expect(upload.get('timestamp_granularities[]')).toEqual(['word']);
    expect((await generationOf(gateway, key, 'transcribe-verbose')).billed_units).toMatchObject({ audio_seconds: 37 });
  });

  it('bills the tokens a gpt-4o transcription reports', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('other/openai-audio-transcriptions-gpt4o-json-token-usage.json')));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'transcribe-tokens' } });
    await client.audio.transcriptions.create({ model: 'openai/gpt-4o-transcribe', file: await toFile(makeWav(1), 'a.wav', { type: 'audio/wav' }) });
    const record = await generationOf(gateway, key, 'transcribe-tokens');
    expect(record).toMatchObject({ tokens_prompt: 122, tokens_completion: 47, estimated: false });
    expect(record.total_cost).toBeCloseTo((122 * 2500 + 47 * 10_000) / 1e9, 12);
  });

  it.each([
    ['gpt-4o-transcribe', 'openai/gpt-4o-transcribe'],
    ['gpt-4o-mini-transcribe-2025-03-20', 'openai/gpt-4o-mini-transcribe-2025-03-20'],
  ])('asks %s for json when the client asks for text, answers the text as text and bills the tokens', async (upstreamModel, slug) => {
    const recorded = readFixture('other/openai-audio-transcriptions-gpt4o-json-token-usage.json');
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));
    const requestId = `transcribe-text-${upstreamModel}`;
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': requestId } });

    const answer = await client.audio.transcriptions
      .create({ model: slug, file: await toFile(makeWav(1), 'a.wav'), response_format: 'text' })
      .withResponse();

    expect(answer.data).toBe(`${(JSON.parse(recorded) as { text: string }).text}\n`);
    expect(answer.response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const upload = await readUpload(upstream.received.at(-1)?.raw ?? Buffer.alloc(0), upstream.received.at(-1)?.headers['content-type']);
    expect(upload.get('response_format')).toEqual(['json']);
    expect(upload.get('model')).toEqual([upstreamModel]);
    const record = await generationOf(gateway, key, requestId);
    expect(record).toMatchObject({ tokens_prompt: 122, tokens_completion: 47, estimated: false });
    expect(record.total_cost).toBeCloseTo((122 * 2500 + 47 * 10_000) / 1e9, 12);
  });

  it('relays a text or subtitle transcript byte for byte, billing the seconds up to its last cue', async () => {
    const srt = '1\n00:00:00,000 --> 00:00:04,200\nGalileo was an American robotic space program\n\n2\n00:00:04,200 --> 00:01:02,450\nthat studied the planet Jupiter.\n';
    upstream.answerWith((_request, response) => sendText(response, 'text/plain; charset=utf-8', srt));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'transcribe-srt' } });
    const answer = await client.audio.transcriptions.create({ model: 'openai/whisper-1', file: await toFile(Buffer.from([1, 2, 3]), 'a.mp3'), response_format: 'srt' });
    expect(answer).toBe(srt);
    expect((await generationOf(gateway, key, 'transcribe-srt')).billed_units).toMatchObject({ audio_seconds: 63 });

    upstream.answerWith((_request, response) => sendText(response, 'text/plain; charset=utf-8', 'Plain words.\n'));
    const text = await client.audio.transcriptions.create({ model: 'openai/whisper-1', file: await toFile(makeWav(4), 'a.wav'), response_format: 'text' });
    expect(text).toBe('Plain words.\n');
    // whisper-1 is asked for the format the client asked for: it bills seconds, which a text answer is metered by.
    const upload = await readUpload(upstream.received.at(-1)?.raw ?? Buffer.alloc(0), upstream.received.at(-1)?.headers['content-type']);
    expect(upload.get('response_format')).toEqual(['text']);
  });

  it.each([
    ['an MP3 answered as text', 'tone.mp3', 'text', 'text/plain; charset=utf-8', 'A tone.\n'],
    ['an M4A answered as JSON without usage (as some providers answer)', 'tone.m4a', 'json', 'application/json', '{"text":"A tone."}'],
    ['a WebM answered as text', 'tone.webm', 'text', 'text/plain; charset=utf-8', 'A tone.\n'],
  ])('bills the seconds of %s by the file itself', async (_what, file, format, contentType, transcript) => {
    upstream.answerWith((_request, response) => sendText(response, contentType, transcript));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': `transcribe-${file}` } });
    const audio = readFileSync(new URL(`../fixtures/audio/${file}`, import.meta.url));

    await client.audio.transcriptions.create({ model: 'openai/whisper-1', file: await toFile(audio, file), response_format: format as 'text' | 'json' });

    // A 3.5-second tone: 4 seconds at 100 micro-USD.
    const record = await generationOf(gateway, key, `transcribe-${file}`);
    expect(record.billed_units).toMatchObject({ audio_seconds: 4 });
    expect(record.total_cost).toBeCloseTo(0.0004, 12);
  });

  it('streams the transcript events of a model that streams, and bills the usage of the last one', async () => {
    // The event sequence OpenAI documents for streamed transcriptions (no recorded stream is available).
    const events = [
      'data: {"type":"transcript.text.delta","delta":"Hello"}\n\n',
      'data: {"type":"transcript.text.delta","delta":" world."}\n\n',
      'data: {"type":"transcript.text.done","text":"Hello world.","usage":{"type":"tokens","input_tokens":30,"input_token_details":{"text_tokens":0,"audio_tokens":30},"output_tokens":4,"total_tokens":34}}\n\n',
    ];
    upstream.answerWith((_request, response) => sendSse(response, events, 0));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'transcribe-stream' } });
    const stream = await client.audio.transcriptions.create({ model: 'openai/gpt-4o-transcribe', file: await toFile(makeWav(1), 'a.wav'), stream: true, response_format: 'text' });
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.type);
    expect(seen).toEqual(['transcript.text.delta', 'transcript.text.delta', 'transcript.text.done']);
    const upload = await readUpload(upstream.received.at(-1)?.raw ?? Buffer.alloc(0), upstream.received.at(-1)?.headers['content-type']);
    expect(upload.get('stream')).toEqual(['true']);
    // A stream's events report the tokens: its format is left as asked.
    expect(upload.get('response_format')).toEqual(['text']);
    expect(await generationOf(gateway, key, 'transcribe-stream')).toMatchObject({ streamed: true, tokens_prompt: 30, tokens_completion: 4 });
  });

  it('refuses an upload without its file with 400 missing_file', async () => {
    const form = new FormData();
    form.set('model', 'openai/whisper-1');
    const response = await fetch(`${gateway.url}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'missing_file', param: 'file' } });
  });

  it('refuses an upload over 6 MB with 413 naming the limit, before any upstream call', async () => {
    const before = upstream.received.length;
    const refusal = await gateway
      .openai(key)
      .audio.transcriptions.create({ model: 'openai/whisper-1', file: await toFile(makeWav(230), 'long.wav', { type: 'audio/wav' }) })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 413 });
    expect(String((refusal as Error).message)).toContain('6 MB');
    expect(upstream.received.length).toBe(before);
  });
});

describe('POST /v1/audio/translations through the openai SDK', () => {
  it('uploads the audio to the translations API and answers its transcript', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('other/openai-audio-transcriptions-json.json')));
    const wav = makeWav(1);
    const answer = await gateway.openai(key).audio.translations.create({ model: 'openai/whisper-1', file: await toFile(wav, 'fr.wav', { type: 'audio/wav' }) });
    expect(answer.text).toContain('Concierge');
    const received = upstream.received.at(-1);
    expect(received?.path).toBe('/v1/audio/translations');
    const upload = await readUpload(received?.raw ?? Buffer.alloc(0), received?.headers['content-type']);
    expect(upload.get('file')).toEqual([{ filename: 'fr.wav', type: 'audio/wav', bytes: wav }]);
  });
});
