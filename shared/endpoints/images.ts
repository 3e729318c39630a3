import { jsonBody } from '../pipeline/generation-endpoint.ts';
import { openAiEndUser } from '../protocols/end-user-fields.ts';
import { parseFormRequest } from '../protocols/form-request.ts';
import { imagesApi } from '../protocols/openai-images/images-api.ts';
import { formValue } from '../http/multipart-form.ts';
import { editImagesBound, generationImagesBound, parseImageGenerationRequest } from '../protocols/openai-images/images-request.ts';
import { openAiApiEndpoint } from './openai-api-endpoint.ts';

const generations = imagesApi('generations');
const edits = imagesApi('edits');

/** POST /v1/images/generations: native to OpenAI-compatible providers, for image models. */
export const imageGenerationsEndpoint = openAiApiEndpoint({
  name: 'images.generations',
  modelKinds: ['image'],
  parse: jsonBody(parseImageGenerationRequest),
  endUser: openAiEndUser,
  promptText: (request) => request.prompt,
  unitsBound: generationImagesBound,
  api: () => generations,
});

/** POST /v1/images/edits: an upload of the image(s) (`image`, or `image[]` for several) and an optional mask. */
export const imageEditsEndpoint = openAiApiEndpoint({
  name: 'images.edits',
  modelKinds: ['image'],
  parse: (request) => parseFormRequest(request, { files: ['image'] }),
  endUser: (request) => formValue(request.form, 'user'),
  promptText: (request) => formValue(request.form, 'prompt') ?? '',
  unitsBound: editImagesBound,
  api: () => edits,
});
