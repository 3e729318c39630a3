import type { describeKey } from '../core/key-record.ts';
import { GatewayError } from '../core/errors.ts';
import { consoleJson } from './console-http.ts';
import type { ConsoleRoute, ConsoleRouteContext } from './console-route.ts';

type KeyView = ReturnType<typeof describeKey>;

/** Owners see every key of the project; a member sees the member keys issued to them. */
async function visibleKeys({ params, role, identity, run }: ConsoleRouteContext): Promise<KeyView[]> {
  const { keys } = await run<{ keys: KeyView[] }>({ command: 'key.list', projectId: params.projectId });
  return role === 'owner' ? keys : keys.filter((key) => key.member === identity.member);
}

/**
 * An owner may change any key of the project; a member only the member keys issued to them. Answers the
 * key as the member sees it (undefined for an owner, who needs no further check).
 */
async function requireOwnKeyUnlessOwner(context: ConsoleRouteContext, action: string): Promise<KeyView | undefined> {
  if (context.role === 'owner') return undefined;
  const key = (await visibleKeys(context)).find((visible) => visible.id === context.params.keyId);
  if (key) return key;
  throw new GatewayError('permission', `Members can ${action} only their own keys.`, { code: 'not_your_key' });
}

/**
 * Disables or enables a key (`key update --enabled off|on`): a disabled key is refused until enabled again.
 * A member enables only a key they disabled themselves: one an owner (or the admin CLI) disabled stays
 * disabled until an owner enables it, or disabling a member's key would stop nobody.
 */
function enableRoute(action: 'disable' | 'enable'): ConsoleRoute {
  return {
    method: 'POST',
    path: `/projects/:projectId/keys/:keyId/${action}`,
    access: 'member',
    async handle(context) {
      const membersKey = await requireOwnKeyUnlessOwner(context, action);
      if (action === 'enable' && membersKey?.status === 'disabled' && membersKey.disabled_by !== context.identity.member) {
        const by = membersKey.disabled_by ?? 'someone else';
        throw new GatewayError('permission', `The key was disabled by ${by}; only an owner of the project can enable it.`, { code: 'disabled_by_other' });
      }
      const { params, run } = context;
      return consoleJson(200, await run({ command: 'key.update', projectId: params.projectId, keyId: params.keyId, enabled: action === 'enable' }));
    },
  };
}

/** API keys: list, create a member key (its secret is in this one answer), disable, enable, revoke. */
export const keyRoutes: ConsoleRoute[] = [
  {
    method: 'GET',
    path: '/projects/:projectId/keys',
    access: 'member',
    async handle(context) {
      return consoleJson(200, { keys: await visibleKeys(context) });
    },
  },
  {
    method: 'POST',
    path: '/projects/:projectId/keys',
    access: 'member',
    async handle({ params, body, identity, run }) {
      // Always a member key of the person creating it: the console issues no anonymous project keys.
      const event = { command: 'key.create', projectId: params.projectId, member: identity.member, ...(body.name !== undefined ? { name: body.name } : {}) };
      return consoleJson(201, await run(event));
    },
  },
  enableRoute('disable'),
  enableRoute('enable'),
  {
    method: 'POST',
    path: '/projects/:projectId/keys/:keyId/revoke',
    access: 'member',
    async handle(context) {
      await requireOwnKeyUnlessOwner(context, 'revoke');
      const { params, run } = context;
      return consoleJson(200, await run({ command: 'key.revoke', projectId: params.projectId, keyId: params.keyId }));
    },
  },
];
