import { describe, expect, it } from 'vitest';
import { modelListFilter, type FilterableModel } from '../../shared/endpoints/model-list-filters.ts';

const chatWithTools: FilterableModel = { supported_parameters: ['tools', 'tool_choice', 'response_format'], architecture: { output_modalities: ['text'] } };
const chatWithoutResponseFormat: FilterableModel = { supported_parameters: ['tools', 'tool_choice'], architecture: { output_modalities: ['text'] } };
const embedding: FilterableModel = { supported_parameters: [], architecture: { output_modalities: ['embeddings'] } };
const image: FilterableModel = { supported_parameters: [], architecture: { output_modalities: ['image'] } };
const all = [chatWithTools, chatWithoutResponseFormat, embedding, image];

function kept(query: string): FilterableModel[] {
  return all.filter(modelListFilter(new URLSearchParams(query)));
}

describe('modelListFilter', () => {
  it('keeps every model when the query has no filter', () => {
    expect(kept('')).toEqual(all);
  });

  it('keeps the models that take the parameter supported_parameters names, as OpenRouter clients filter for tools', () => {
    expect(kept('supported_parameters=tools')).toEqual([chatWithTools, chatWithoutResponseFormat]);
  });

  it('keeps only the models that take every parameter of a comma-separated list', () => {
    expect(kept('supported_parameters=tools,response_format')).toEqual([chatWithTools]);
  });

  it('keeps the models that give any output modality named, and all of them for "all"', () => {
    expect(kept('output_modalities=image,embeddings')).toEqual([embedding, image]);
    expect(kept('output_modalities=all')).toEqual(all);
  });

  it('applies both filters together', () => {
    expect(kept('output_modalities=text&supported_parameters=response_format')).toEqual([chatWithTools]);
  });
});
