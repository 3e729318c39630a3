import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formFiles, formValue, formValues, parseMultipartForm, serializeMultipartForm, withFormValue, withoutFormFields } from '../../shared/http/multipart-form.ts';

async function encode(form: FormData): Promise<{ body: Uint8Array; contentType: string }> {
  const request = new Request('http://local/', { method: 'POST', body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

const bytesOf = (chunks: Uint8Array[]) => Buffer.concat(chunks);

describe('parseMultipartForm', () => {
  it('reads fields and files in the order the client sent them', async () => {
    const form = new FormData();
    form.append('model', 'openai/whisper-1');
    form.append('file', new Blob([new Uint8Array([0, 255, 1, 254])], { type: 'audio/wav' }), 'tone.wav');
    form.append('models[]', 'a');
    form.append('models[]', 'b');
    const { body, contentType } = await encode(form);

    const parsed = await parseMultipartForm(body, contentType);

    expect(parsed.parts.map((part) => part.name)).toEqual(['model', 'file', 'models[]', 'models[]']);
    expect(formValue(parsed, 'model')).toBe('openai/whisper-1');
    expect(formValues(parsed, 'models')).toEqual(['a', 'b']);
    const [file] = formFiles(parsed, 'file');
    expect(file).toMatchObject({ filename: 'tone.wav', contentType: 'audio/wav', size: 4 });
    expect([...bytesOf(file?.chunks ?? [])]).toEqual([0, 255, 1, 254]);
  });

  it('keeps file bytes as views of the request body (no copy before the one into the upstream body)', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(1000).fill(7)]), 'blob.bin');
    const { body, contentType } = await encode(form);
    const [file] = formFiles(await parseMultipartForm(body, contentType), 'file');
    expect(file?.chunks.every((chunk) => chunk.buffer === body.buffer)).toBe(true);
  });

  it('refuses a body that is not multipart/form-data with 400 invalid_multipart', async () => {
    await expect(parseMultipartForm(new TextEncoder().encode('{}'), 'application/json')).rejects.toMatchObject({ status: 400, code: 'invalid_multipart' });
    await expect(parseMultipartForm(new Uint8Array(), undefined)).rejects.toMatchObject({ status: 400, code: 'invalid_multipart' });
  });

  it('refuses a form cut off before its end', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(100)]), 'x.bin');
    const { body, contentType } = await encode(form);
    await expect(parseMultipartForm(body.subarray(0, body.length - 30), contentType)).rejects.toMatchObject({ status: 400, code: 'invalid_multipart' });
  });
});

describe('serializeMultipartForm', () => {
  it('round-trips any bytes and names through a standard parser', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), fc.string({ maxLength: 20 }), fc.string({ minLength: 1, maxLength: 20 }), async (bytes, value, filename) => {
        const form = { parts: [{ kind: 'field' as const, name: 'prompt', value }, { kind: 'file' as const, name: 'image', filename, contentType: 'image/png', chunks: [bytes], size: bytes.length }] };
        const { body, contentType } = serializeMultipartForm(form);
        const parsed = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
        const file = parsed.get('image') as File;
        expect(Buffer.from(await file.arrayBuffer())).toEqual(Buffer.from(bytes));
        // The standard parser turns a lone CR or LF of a value into CRLF, as browsers send it.
        expect(parsed.get('prompt')).toBe(value.replace(/\r\n|\r|\n/g, '\r\n'));
      }),
      { numRuns: 50 },
    );
  });

  it('escapes quotes and line breaks of names and filenames', () => {
    const { body } = serializeMultipartForm({ parts: [{ kind: 'file', name: 'a"b', filename: 'x\r\ny".png', contentType: 'image/png', chunks: [], size: 0 }] });
    expect(Buffer.from(body).toString('latin1')).toContain('name="a%22b"; filename="x%0D%0Ay%22.png"');
  });
});

describe('form editing', () => {
  const form = { parts: [{ kind: 'field' as const, name: 'model', value: 'openai/whisper-1' }, { kind: 'field' as const, name: 'route', value: 'fallback' }] };

  it('replaces a value in place, or adds it first', () => {
    expect(withFormValue(form, 'model', 'whisper-1').parts[0]).toEqual({ kind: 'field', name: 'model', value: 'whisper-1' });
    expect(withFormValue({ parts: [] }, 'model', 'x').parts).toEqual([{ kind: 'field', name: 'model', value: 'x' }]);
  });

  it('drops routing-only parts, array-named ones included', () => {
    expect(withoutFormFields({ parts: [...form.parts, { kind: 'field', name: 'models[]', value: 'y' }] }, ['route', 'models']).parts.map((part) => part.name)).toEqual(['model']);
  });
});
