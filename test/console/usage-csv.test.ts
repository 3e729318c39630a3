import { describe, expect, it } from 'vitest';
import { toCsv } from '../../shared/console/usage-csv.ts';

describe('toCsv', () => {
  it('writes a header line and one line per row, empty cells for nulls, CRLF line ends', () => {
    expect(toCsv(['id', 'cost_nanos', 'streamed', 'error_code'], [{ id: 'req-1', cost_nanos: 1500, streamed: true, error_code: null }])).toBe(
      'id,cost_nanos,streamed,error_code\r\nreq-1,1500,true,\r\n',
    );
  });

  it('quotes cells holding commas, quotes or line breaks', () => {
    expect(toCsv(['app_title'], [{ app_title: 'Acme, "beta"\nbuild' }])).toBe('app_title\r\n"Acme, ""beta""\nbuild"\r\n');
  });

  it('neutralises client-sent text that a spreadsheet would run as a formula', () => {
    const csv = toCsv(['app_title', 'http_referer', 'environment'], [{ app_title: '=HYPERLINK("http://evil")', http_referer: '+1', environment: '@SUM(A1)' }]);
    expect(csv).toBe(`app_title,http_referer,environment\r\n"'=HYPERLINK(""http://evil"")",'+1,'@SUM(A1)\r\n`);
  });

  it('writes integers beyond 2^53, which the usage runners give as decimal text, digit for digit', () => {
    expect(toCsv(['cost_nanos'], [{ cost_nanos: '10000000000000003' }])).toBe('cost_nanos\r\n10000000000000003\r\n');
  });

  it('leaves negative numbers alone: only text is guarded', () => {
    expect(toCsv(['delta'], [{ delta: -3 }])).toBe('delta\r\n-3\r\n');
  });
});
