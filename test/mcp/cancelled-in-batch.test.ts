import { describe, expect, it } from 'vitest';
import { withoutCancelledRequests } from '../../shared/mcp/cancelled-in-batch.ts';

const request = (id: number | string, method = 'tools/call') => ({ jsonrpc: '2.0', id, method, params: { name: 'docs__search' } });
const cancel = (requestId: number | string) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });

describe('withoutCancelledRequests', () => {
  it('takes out every request of the batch whose id a cancellation of the batch names, wherever it stands, and keeps the notifications', () => {
    const batch = [request(1), cancel(1), request(2, 'tools/list'), cancel(3), request(3), request(1)];
    expect(withoutCancelledRequests(batch)).toEqual([cancel(1), request(2, 'tools/list'), cancel(3)]);
  });

  it('matches ids as JSON-RPC does (1 is not "1"), and leaves a batch without cancellations, or a lone message, as it is', () => {
    expect(withoutCancelledRequests([request(1), cancel('1')])).toEqual([request(1), cancel('1')]);
    const batch = [request(1), request(2)];
    expect(withoutCancelledRequests(batch)).toBe(batch);
    expect(withoutCancelledRequests(request(1))).toEqual(request(1));
    expect(withoutCancelledRequests(undefined)).toBeUndefined();
  });

  it('reads only a well-formed cancellation notification: one with an id is a request, not a cancellation', () => {
    const asRequest = { ...cancel(1), id: 9 };
    expect(withoutCancelledRequests([request(1), asRequest])).toEqual([request(1), asRequest]);
  });
});
