import { randomBytes } from 'node:crypto';
import { Busboy } from '@fastify/busboy';
import { GatewayError } from '../core/errors.ts';

/** A text part of a form. */
export interface FormField {
  kind: 'field';
  name: string;
  value: string;
}

/**
 * A file part of a form. Its bytes stay the chunks the parser found in the request body (views, not
 * copies), so that rebuilding the form for the upstream copies them once.
 */
export interface FormFile {
  kind: 'file';
  name: string;
  filename: string;
  contentType: string;
  chunks: Uint8Array[];
  size: number;
}

export type FormPart = FormField | FormFile;

/** A multipart/form-data body, its parts in the client's order. */
export interface MultipartForm {
  parts: FormPart[];
}

/**
 * Parses a multipart/form-data body with busboy (a streaming parser; none is hand-written here). A body
 * that is not a well-formed form is a 400 naming what is wrong.
 */
export function parseMultipartForm(body: Uint8Array, contentType: string | undefined): Promise<MultipartForm> {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType) || !/boundary=/i.test(contentType)) {
    return Promise.reject(invalidForm('The request body must be multipart/form-data with a boundary (an upload of files and fields).'));
  }
  return new Promise<MultipartForm>((resolve, reject) => {
    const parts: FormPart[] = [];
    const pending: Array<Promise<void>> = [];
    let parser: ReturnType<typeof Busboy>;
    try {
      // Field values may be long (a prompt); the body size is already bounded by the route group.
      parser = Busboy({ headers: { 'content-type': contentType }, limits: { fieldSize: body.byteLength, fieldNameSize: 200 } });
    } catch (cause) {
      return reject(invalidForm(`The multipart body cannot be read: ${describe(cause)}.`, cause));
    }
    parser.on('field', (name, value) => void parts.push({ kind: 'field', name, value }));
    parser.on('file', (name, stream, filename, _encoding, mimeType) => {
      const file: FormFile = { kind: 'file', name, filename, contentType: mimeType || 'application/octet-stream', chunks: [], size: 0 };
      parts.push(file);
      pending.push(
        new Promise<void>((done, fail) => {
          stream.on('data', (chunk: Uint8Array) => {
            file.chunks.push(chunk);
            file.size += chunk.byteLength;
          });
          stream.once('end', () => done());
          stream.once('error', fail);
        }),
      );
    });
    parser.once('error', (cause: unknown) => reject(invalidForm(`The multipart body cannot be read: ${describe(cause)}.`, cause)));
    parser.once('finish', () => {
      Promise.all(pending).then(
        () => resolve({ parts }),
        (cause: unknown) => reject(invalidForm(`The multipart body cannot be read: ${describe(cause)}.`, cause)),
      );
    });
    parser.end(body);
  });
}

/** The first text value of a field, if the form has one. */
export function formValue(form: MultipartForm, name: string): string | undefined {
  const part = form.parts.find((candidate) => candidate.kind === 'field' && candidate.name === name);
  return part?.kind === 'field' ? part.value : undefined;
}

/** Every text value of a repeated field (`models`, or `models[]` as the OpenAI SDK writes arrays). */
export function formValues(form: MultipartForm, name: string): string[] {
  return form.parts.flatMap((part) => (part.kind === 'field' && (part.name === name || part.name === `${name}[]`) ? [part.value] : []));
}

/** The file parts under a name (`image`, or `image[]` for several). */
export function formFiles(form: MultipartForm, name: string): FormFile[] {
  return form.parts.flatMap((part) => (part.kind === 'file' && (part.name === name || part.name === `${name}[]`) ? [part] : []));
}

/** The form without the parts of these names (routing-only fields). */
export function withoutFormFields(form: MultipartForm, names: readonly string[]): MultipartForm {
  const dropped = new Set(names.flatMap((name) => [name, `${name}[]`]));
  return { parts: form.parts.filter((part) => !dropped.has(part.name)) };
}

/** The form with one text field's value replaced (the upstream's model id), or added when absent. */
export function withFormValue(form: MultipartForm, name: string, value: string): MultipartForm {
  let replaced = false;
  const parts = form.parts.map((part): FormPart => {
    if (part.kind !== 'field' || part.name !== name) return part;
    replaced = true;
    return { ...part, value };
  });
  return { parts: replaced ? parts : [{ kind: 'field', name, value }, ...parts] };
}

const encoder = new TextEncoder();

/**
 * The form as a multipart/form-data body under a fresh boundary. File bytes are copied once, into the
 * body; names and filenames are escaped as the HTML standard does (`"`, CR and LF percent-encoded).
 */
export function serializeMultipartForm(form: MultipartForm): { body: Uint8Array; contentType: string } {
  const boundary = `----gateway-form-${randomBytes(16).toString('hex')}`;
  const pieces: Uint8Array[] = [];
  for (const part of form.parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(part.name)}"`;
    if (part.kind === 'file') head += `; filename="${escapeName(part.filename)}"\r\nContent-Type: ${part.contentType}`;
    pieces.push(encoder.encode(`${head}\r\n\r\n`));
    if (part.kind === 'file') pieces.push(...part.chunks);
    else pieces.push(encoder.encode(part.value));
    pieces.push(encoder.encode('\r\n'));
  }
  pieces.push(encoder.encode(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}

function escapeName(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function invalidForm(message: string, cause?: unknown): GatewayError {
  return new GatewayError('invalid_request', message, { code: 'invalid_multipart', cause });
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message.replace(/\.$/, '') : 'malformed';
}
