import type { RouteTarget } from '../core/plan-route.ts';
import { effectiveModelLimits } from '../core/known-models.ts';
import { reasonsAsOpenAiModel } from '../core/reasoning-models.ts';
import { capsWithMaxCompletionTokens, readsReasoningObject, takesCustomTools } from '../core/provider-catalog.ts';
import type { BridgeTarget } from '../protocols/bridge-plan.ts';

/** `make` for a target, made on its first call for that target and kept for the request's later ones. */
export function oncePerTarget<Value>(make: (target: RouteTarget) => Value): (target: RouteTarget) => Value {
  const made = new Map<RouteTarget, Value>();
  return (target) => {
    let value = made.get(target);
    if (value === undefined) made.set(target, (value = make(target)));
    return value;
  };
}

/** A target as its bridge sees it: the protocols its provider speaks for the model, and what its provider takes beyond them. */
export function bridgeTarget(target: RouteTarget): BridgeTarget {
  const { provider, protocols, baseUrl } = target.provider;
  const outputTokenLimit = effectiveModelLimits(target.model).maxOutputTokens;
  return {
    protocols,
    features: {
      customTools: takesCustomTools(provider),
      maxCompletionTokens: capsWithMaxCompletionTokens(provider, baseUrl),
      reasoningObject: readsReasoningObject(provider),
      reasoningModel: reasonsAsOpenAiModel(target.model),
      ...(target.model.reasoning !== undefined ? { reasoningMarked: target.model.reasoning } : {}),
      ...(outputTokenLimit ? { outputTokenLimit } : {}),
    },
  };
}
