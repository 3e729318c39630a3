import type { UsageSink } from '../../shared/core/ports.ts';

/**
 * With GATEWAY_USAGE_SINK=in-process (the local host), route groups hand usage records to the queue the
 * host registered here, which feeds the writer handler in the same process.
 */
let registered: UsageSink | undefined;

export function registerInProcessUsageSink(sink: UsageSink): void {
  registered = sink;
}

export const inProcessUsageSink: UsageSink = {
  send(record) {
    if (!registered) throw new Error('GATEWAY_USAGE_SINK=in-process needs the local host to register its usage queue first');
    return registered.send(record);
  },
};
