/** What a model-list filter reads of an entry: the fields OpenRouter's `/models` filters on. */
export interface FilterableModel {
  supported_parameters: readonly string[];
  architecture: { output_modalities: readonly string[] };
}

/** A comma-separated query value as its non-empty items. */
function listOf(value: string | null): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter((item) => item.length > 0);
}

/**
 * OpenRouter's filters of `GET /models`: `supported_parameters=tools,…` keeps the models that take every
 * parameter named, `output_modalities=text,image,…` those that give any modality named (`all`: no filter).
 * Without them the list is the whole allowlist (OpenRouter's own list defaults to text output; ours does not).
 */
export function modelListFilter(query: URLSearchParams): (model: FilterableModel) => boolean {
  const parameters = listOf(query.get('supported_parameters'));
  const modalities = listOf(query.get('output_modalities'));
  const anyModality = modalities.length === 0 || modalities.includes('all');
  return (model) =>
    parameters.every((parameter) => model.supported_parameters.includes(parameter)) &&
    (anyModality || modalities.some((modality) => model.architecture.output_modalities.includes(modality)));
}
