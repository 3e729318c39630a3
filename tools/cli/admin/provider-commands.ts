import { knownProviders, MOCK_PROVIDER } from '../../../shared/core/provider-catalog.ts';
import { projectIdArgument, type CliCommand } from './cli-command.ts';
import { oneOf, text } from './flag-values.ts';

const providerArgument = { name: 'provider', description: 'the provider name, e.g. openai', field: 'provider' };
const known = Object.keys(knownProviders).filter((name) => name !== MOCK_PROVIDER);

export const providerCommands: CliCommand[] = [
  {
    group: 'provider',
    verb: 'set',
    event: 'provider.set',
    summary: "Configure a provider on a project, or replace its key",
    details:
      `Known providers bring their protocol and base URL: ${known.join(', ')}. ` +
      `"${MOCK_PROVIDER}" is the offline mock and needs no key. Any other name needs --protocol and --base-url. ` +
      'The key goes to the secret store only and is never shown again. ' +
      'Set again without --api-key, a provider keeps its stored key if its base URL stays on the same host; a new host needs the key again. ' +
      `An OpenAI-protocol provider serves /v1/responses natively (${known.filter((name) => knownProviders[name]?.servesResponses).join(', ')} and Azure OpenAI by default) ` +
      'or through translation to chat completions (every other provider by default); --responses says which, and is kept when not given again. ' +
      '"bedrock" (or any name with --protocol bedrock) is Amazon Bedrock in --region: no key needed, its calls are signed with the gateway\'s AWS credentials ' +
      '(the function\'s role in AWS; locally the default chain, or --profile), or given --api-key, a Bedrock API key.',
    arguments: [projectIdArgument, providerArgument],
    flags: [
      { name: '--api-key', value: 'KEY', description: "the provider's API key (every provider but mock; optional for Bedrock)", field: 'apiKey', parse: text },
      { name: '--base-url', value: 'URL', description: "the provider's API root, ending before /chat/completions or /messages (an Anthropic-protocol one without /v1, as published, gets it added)", field: 'baseUrl', parse: text },
      {
        name: '--protocol',
        value: 'openai|anthropic|bedrock|cohere|jina|voyage',
        description: 'the wire protocol the provider speaks (cohere, jina and voyage: their rerank APIs)',
        field: 'protocol',
        parse: oneOf(['openai', 'anthropic', 'bedrock', 'cohere', 'jina', 'voyage']),
      },
      { name: '--region', value: 'REGION', description: "a Bedrock provider's AWS region, e.g. us-east-1 (its endpoint and signing region)", field: 'region', parse: text },
      { name: '--profile', value: 'NAME', description: "a Bedrock provider's AWS profile for signing, locally (default: the default credential chain)", field: 'profile', parse: text },
      {
        name: '--responses',
        value: 'native|translate',
        description: "whether /v1/responses requests reach an OpenAI-protocol provider's own /responses, or chat completions through translation",
        field: 'responses',
        parse: oneOf(['native', 'translate']),
      },
      {
        name: '--rerank',
        value: 'cohere|jina|voyage|none',
        description: 'the rerank API an OpenAI-protocol provider also serves at /rerank, by the shape it speaks (together: jina by default)',
        field: 'rerank',
        parse: oneOf(['cohere', 'jina', 'voyage', 'none']),
      },
    ],
    examples: [
      'provider set acme mock',
      'provider set acme openai --api-key "$OPENAI_API_KEY"',
      'provider set acme vllm --protocol openai --base-url http://127.0.0.1:8000/v1 --api-key local',
      'provider set acme azure --protocol openai --base-url https://acme.openai.azure.com/openai/v1 --api-key "$AZURE_OPENAI_KEY" --responses native',
      'provider set acme bedrock --region us-east-1',
      'provider set acme bedrock-eu --protocol bedrock --region eu-central-1 --profile gateway-dev',
      'provider set acme cohere --api-key "$COHERE_API_KEY"',
      'provider set acme infinity --protocol openai --base-url http://127.0.0.1:7997 --api-key local --rerank cohere',
    ],
    prints: 'the project as JSON (the key is never in it)',
  },
  {
    group: 'provider',
    verb: 'list',
    event: 'provider.list',
    summary: 'List the providers of a project',
    arguments: [projectIdArgument],
    flags: [],
    examples: ['provider list acme --output table'],
    prints: '{"providers": [{provider, protocols, auth, base_url, has_api_key, region?, profile?, models, updated_at}]}; models counts the allowed models it serves',
  },
  {
    group: 'provider',
    verb: 'remove',
    event: 'provider.remove',
    summary: 'Remove a provider from a project and delete its key',
    details: 'Refused while models of the provider are allowed: remove them first with "model remove".',
    arguments: [projectIdArgument, providerArgument],
    flags: [],
    examples: ['provider remove acme openai'],
    prints: 'the project as JSON',
  },
];
