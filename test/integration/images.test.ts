import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng, readUpload } from '../support/binary-files.ts';
import { startFakeOpenAiUpstream, sendJson, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { generationOf } from '../support/generation-lookup.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;

const models = [
  { slug: 'openai/dall-e-3', kind: 'image', imageMicros: 40_000 },
  { slug: 'openai/dall-e-2', kind: 'image', imageMicros: 16_000 },
  { slug: 'openai/gpt-image-1', kind: 'image', inputMicrosPer1k: 5000, outputMicrosPer1k: 40_000, imageMicros: 42_000 },
];

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  key = await createProjectWithKey(gateway, { projectId: 'pictures', baseUrl: upstream.baseUrl, models });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

describe('POST /v1/images/generations through the openai SDK', () => {
  it('answers base64 images as recorded and prices each image made', async () => {
    const recorded = readFixture('other/openai-images-generations-b64.json');
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'images-b64' } });

    const answer = await client.images.generate({ model: 'dall-e-3', prompt: 'A baby sea otter', n: 2, response_format: 'b64_json' });

    expect(answer).toEqual(JSON.parse(recorded));
    expect(upstream.received.at(-1)).toMatchObject({ path: '/v1/images/generations', body: { model: 'dall-e-3', prompt: 'A baby sea otter', n: 2, response_format: 'b64_json' } });
    const record = await generationOf(gateway, key, 'images-b64');
    expect(record).toMatchObject({ endpoint: 'images.generations', billed_units: { requests: 1, images: 2 } });
    expect(record.total_cost).toBe(0.08);
  });

  it('answers image URLs as recorded', async () => {
    const recorded = readFixture('other/openai-images-generations-url.json');
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));
    const answer = await gateway.openai(key).images.generate({ model: 'openai/dall-e-2', prompt: 'A baby sea otter cooking pasta wearing a hat of some sort', size: '256x256' });
    expect(answer.data?.[0]?.url).toBe((JSON.parse(recorded) as { data: Array<{ url: string }> }).data[0]?.url);
  });

  it('bills and shows as it came the JSON answer of a provider that ignored `stream: true`', async () => {
    const recorded = readFixture('other/openai-images-generations-b64.json');
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));

    const response = await fetch(`${gateway.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'images-stream-ignored' },
      body: JSON.stringify({ model: 'openai/dall-e-3', prompt: 'A baby sea otter', n: 2, stream: true }),
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(await response.text())).toEqual(JSON.parse(recorded));
    const record = await generationOf(gateway, key, 'images-stream-ignored');
    expect(record).toMatchObject({ status: 'completed', billed_units: { requests: 1, images: 2 } });
    expect(record.total_cost).toBe(0.08);
  });

  it('relays the provider refusing a parameter as its own 400, naming the parameter', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 400, readFixture('other/openai-images-gpt-image-response-format-error.json')));
    const refusal = await gateway
      .openai(key)
      .images.generate({ model: 'openai/gpt-image-1', prompt: 'x', response_format: 'url' })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 400, code: 'unknown_parameter', param: 'response_format' });
  });
});

describe('POST /v1/images/edits through the openai SDK', () => {
  it('uploads the image and the mask byte for byte, with the provider model id, and prices the image made', async () => {
    const recorded = readFixture('other/openai-images-edits-gpt-image-b64.json');
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));
    const image = makePng(64, 48);
    const mask = makePng(64, 48, { transparent: true });
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'images-edit' } });

    const answer = await client.images.edit({
      model: 'openai/gpt-image-1',
      image: await toFile(image, 'otter.png', { type: 'image/png' }),
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
      prompt: 'Add a tiny chef hat',
    });

    expect(answer).toEqual(JSON.parse(recorded));
    const received = upstream.received.at(-1);
    expect(received?.path).toBe('/v1/images/edits');
    const upload = await readUpload(received?.raw ?? Buffer.alloc(0), received?.headers['content-type']);
    expect(upload.get('model')).toEqual(['gpt-image-1']);
    expect(upload.get('prompt')).toEqual(['Add a tiny chef hat']);
    expect(upload.get('image')).toEqual([{ filename: 'otter.png', type: 'image/png', bytes: image }]);
    expect(upload.get('mask')).toEqual([{ filename: 'mask.png', type: 'image/png', bytes: mask }]);
    // The answer reports no tokens: one image at 42,000 micro-USD, and the prompt's estimated tokens.
    const record = await generationOf(gateway, key, 'images-edit');
    expect(record).toMatchObject({ endpoint: 'images.edits', billed_units: { images: 1 }, estimated: true, tokens_completion: 0 });
    expect(record.total_cost).toBeCloseTo(0.042 + (record.tokens_prompt * 5000) / 1e9, 12);
  });

  it('uploads several images as the SDK sends them (image[]), keeping each one intact', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('other/openai-images-edits-gpt-image-b64.json')));
    const first = makePng(16, 16);
    const second = makePng(32, 8);
    await gateway.openai(key).images.edit({
      model: 'openai/gpt-image-1',
      image: [await toFile(first, 'a.png', { type: 'image/png' }), await toFile(second, 'b.png', { type: 'image/png' })],
      prompt: 'Combine them',
    });
    const received = upstream.received.at(-1);
    const upload = await readUpload(received?.raw ?? Buffer.alloc(0), received?.headers['content-type']);
    expect(upload.get('image[]')).toEqual([
      { filename: 'a.png', type: 'image/png', bytes: first },
      { filename: 'b.png', type: 'image/png', bytes: second },
    ]);
  });

  it('refuses an upload without an image with 400 naming the missing file, before any upstream call', async () => {
    const before = upstream.received.length;
    const form = new FormData();
    form.set('model', 'openai/gpt-image-1');
    form.set('prompt', 'x');
    const response = await fetch(`${gateway.url}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'missing_file', param: 'image' } });
    expect(upstream.received.length).toBe(before);
  });

  it('refuses a body that is not a multipart form with 400 invalid_multipart', async () => {
    const response = await fetch(`${gateway.url}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-image-1', prompt: 'x' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_multipart' } });
  });
});
