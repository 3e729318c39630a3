import { describe, expect, it } from 'vitest';
import { inlineFileName, readableImageType, readBase64DataUrl } from '../../shared/canonical/base64-data-url.ts';

describe('readBase64DataUrl', () => {
  it('reads the media type, lower-cased and without its parameters, and the data', () => {
    expect(readBase64DataUrl('data:Image/PNG;base64,iVBO')).toEqual({ mediaType: 'image/png', data: 'iVBO' });
    expect(readBase64DataUrl('data:application/pdf;name=a.pdf;base64,JVBE')).toEqual({ mediaType: 'application/pdf', data: 'JVBE' });
  });

  it('reads no URL that is not base64 data', () => {
    expect(readBase64DataUrl('data:text/plain,hello')).toBeUndefined();
    expect(readBase64DataUrl('https://example.com/a.png')).toBeUndefined();
  });
});

describe('readableImageType', () => {
  it('takes image/jpg, which clients build from a file extension, for JPEG', () => {
    expect(readableImageType('image/jpg')).toBe('image/jpeg');
  });

  it.each(['image/bmp', 'image/svg+xml', 'image/tiff'])('has no type Claude reads for %s', (type) => {
    expect(readableImageType(type)).toBeUndefined();
  });
});

describe('inlineFileName', () => {
  it("keeps the client's name, and makes one from the type when there is none (OpenAI refuses file_data without a filename)", () => {
    expect(inlineFileName('data:application/pdf;base64,JVBE', 'report.pdf')).toBe('report.pdf');
    expect(inlineFileName('data:application/pdf;base64,JVBE', undefined)).toBe('document.pdf');
    expect(inlineFileName('data:application/octet-stream;base64,AAAA', undefined)).toBe('document');
  });
});
