import { describe, expect, it } from 'vitest';
import { errorTextExcerpt, MAX_EXCERPT_LENGTH } from '../../shared/transport/error-text-excerpt.ts';
import { readFixture } from '../support/fixtures.ts';

describe('errorTextExcerpt', () => {
  it("keeps an nginx error page's visible words, once each: its heading and its signature", () => {
    expect(errorTextExcerpt(readFixture('other/nginx-502-bad-gateway.html'), 'text/html')).toBe('502 Bad Gateway nginx');
  });

  it('leaves out what a page shows no reader: its head, scripts, styles and comments', () => {
    const page = [
      '<!DOCTYPE html><html><head><title>example.com | 502: Bad gateway</title><style>body{color:red}</style>',
      '<script>window.cf = {ray: "8c1"};</script></head>',
      '<body><!-- ray id --><h1>Bad gateway</h1>\n\n  <p>Error code 502</p><script>track()</script><noscript>enable JS</noscript></body></html>',
    ].join('');
    expect(errorTextExcerpt(page, 'text/html; charset=UTF-8')).toBe('Bad gateway Error code 502');
  });

  it('decodes entities, so that the words read as the page shows them', () => {
    expect(errorTextExcerpt('<html><body><p>Model &quot;x&quot; &amp; &#8220;y&#8221; &lt;gone&gt;&nbsp;&#x21;</p></body></html>', 'text/html')).toBe('Model "x" & “y” <gone> !');
  });

  it("uses a page's title when its body shows nothing", () => {
    expect(errorTextExcerpt('<html><head><title>Service Unavailable</title></head><body></body></html>', 'text/html')).toBe('Service Unavailable');
  });

  it('takes a body as HTML by its first tag when the content type does not say so', () => {
    expect(errorTextExcerpt('<html><body><h1>403 Forbidden</h1></body></html>', 'application/octet-stream')).toBe('403 Forbidden');
  });

  it('keeps the angle brackets of plain text and collapses its whitespace', () => {
    expect(errorTextExcerpt('upstream connect error\r\n  or disconnect/reset before headers: value must be <= 5 and > 0\n', 'text/plain')).toBe(
      'upstream connect error or disconnect/reset before headers: value must be <= 5 and > 0',
    );
  });

  it(`cuts a long text to ${MAX_EXCERPT_LENGTH} characters, marking the cut`, () => {
    const excerpt = errorTextExcerpt(`${'word '.repeat(1_000)}`, 'text/plain');
    expect(excerpt).toHaveLength(MAX_EXCERPT_LENGTH);
    expect(excerpt.endsWith('…')).toBe(true);
  });

  it('is empty for an empty body', () => {
    expect(errorTextExcerpt(' \n', null)).toBe('');
  });
});
