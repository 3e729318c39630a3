import { InvokeCommand, LambdaClient, type InvokeCommandOutput } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseAdminInvoker } from '../../../tools/cli/admin-invoker.ts';

const lambda = mockClient(LambdaClient);
// The SDK wraps payload bytes in a blob adapter; the invoker reads them as plain bytes.
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)) as InvokeCommandOutput['Payload'];

afterEach(() => {
  lambda.reset();
});

describe('chooseAdminInvoker with GATEWAY_ADMIN_FUNCTION_NAME', () => {
  it('invokes the deployed admin function with the command as its payload', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: encode({ ok: true, result: { id: 'acme' } }) });
    const invoker = await chooseAdminInvoker({ GATEWAY_ADMIN_FUNCTION_NAME: 'gateway-admin-fn' });

    const answer = await invoker.invoke({ command: 'project.get', projectId: 'acme' });
    await invoker.close();

    expect(invoker.target).toBe('aws');
    expect(answer).toEqual({ ok: true, result: { id: 'acme' } });
    const sent = lambda.commandCalls(InvokeCommand)[0]?.args[0].input;
    expect(sent?.FunctionName).toBe('gateway-admin-fn');
    expect(JSON.parse(new TextDecoder().decode(sent?.Payload as Uint8Array))).toEqual({ command: 'project.get', projectId: 'acme' });
  });

  it('reports a function error instead of printing it as a result', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, FunctionError: 'Unhandled', Payload: encode({ errorMessage: 'boom' }) });
    const invoker = await chooseAdminInvoker({ GATEWAY_ADMIN_FUNCTION_NAME: 'gateway-admin-fn' });

    await expect(invoker.invoke({ command: 'ratecard.list' })).rejects.toThrow(/The admin function failed: .*boom/);
    await invoker.close();
  });
});
