/** A base64 `data:` URL's media type (lower-cased, parameters left out) and data. */
export interface Base64DataUrl {
  mediaType: string;
  data: string;
}

const DATA_URL = /^data:([^;,]+)(?:;[^;,]*)*;base64,(.*)$/s;

export function readBase64DataUrl(url: string): Base64DataUrl | undefined {
  const match = DATA_URL.exec(url);
  return match ? { mediaType: (match[1] ?? '').toLowerCase(), data: match[2] ?? '' } : undefined;
}

export type ReadableImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/**
 * The image types Anthropic's and Bedrock's Claude read, by the media type a client wrote: `image/jpg`, the
 * name many clients build from a file's extension (OpenAI takes it), is JPEG. Any other type is undefined.
 */
const IMAGE_MEDIA_TYPES: Readonly<Record<string, ReadableImageType>> = {
  'image/jpeg': 'image/jpeg',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/gif': 'image/gif',
  'image/webp': 'image/webp',
};

export function readableImageType(mediaType: string): ReadableImageType | undefined {
  return IMAGE_MEDIA_TYPES[mediaType];
}

/** File extensions of the document types clients send inline, for a name made up where none was given. */
const EXTENSIONS: Readonly<Record<string, string>> = { 'application/pdf': '.pdf', 'text/plain': '.txt', 'text/markdown': '.md', 'text/csv': '.csv', 'application/json': '.json' };

/**
 * The name an inline file goes with to OpenAI: the client's, else `document` with its type's extension.
 * OpenAI refuses `file_data` without a `filename` (chat: "Missing required parameter: '…file.file_id'",
 * the Responses API likewise), and an Anthropic `document` block's `title` is optional.
 */
export function inlineFileName(dataUrl: string, filename: string | undefined): string {
  if (filename) return filename;
  return `document${EXTENSIONS[readBase64DataUrl(dataUrl)?.mediaType ?? ''] ?? ''}`;
}
