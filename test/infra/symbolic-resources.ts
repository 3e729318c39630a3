import type { Template } from 'aws-cdk-lib/assertions';
import type { AwsCallContext } from '../support/aws-call-recorder.ts';

/**
 * Resolves a synthesized template's values (Ref, Fn::GetAtt, Fn::Join…) to concrete strings, naming each
 * resource after its logical id: a table `TablesProjectsABC` is the table named so, its ARN
 * `arn:aws:dynamodb:<region>:<account>:table/TablesProjectsABC`. The functions' environment and their
 * policies resolve the same way, so what the code sends can be matched against what the policy allows.
 */
export class SymbolicResources {
  private readonly types: Record<string, string>;

  readonly context: AwsCallContext;

  constructor(template: Template, context: AwsCallContext) {
    this.context = context;
    const resources = template.toJSON().Resources as Record<string, { Type: string }>;
    this.types = Object.fromEntries(Object.entries(resources).map(([id, resource]) => [id, resource.Type]));
  }

  resolve(value: unknown): string {
    if (typeof value === 'string') return value;
    if (typeof value !== 'object' || value === null) return String(value);
    const [intrinsic, argument] = Object.entries(value)[0] ?? [];
    switch (intrinsic) {
      case 'Ref':
        return this.ref(String(argument));
      case 'Fn::GetAtt': {
        const [id, attribute] = argument as [string, string];
        return this.attribute(id, attribute);
      }
      case 'Fn::Join': {
        const [separator, parts] = argument as [string, unknown[]];
        return parts.map((part) => this.resolve(part)).join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = argument as [number, unknown];
        const items = this.list(list);
        return items[Number(index)] ?? '';
      }
      default:
        throw new Error(`Cannot resolve ${JSON.stringify(value)}`);
    }
  }

  private list(value: unknown): string[] {
    if (Array.isArray(value)) return value.map((item) => this.resolve(item));
    const split = (value as Record<string, unknown>)['Fn::Split'] as [string, unknown] | undefined;
    if (split) return this.resolve(split[1]).split(split[0]);
    throw new Error(`Cannot resolve a list from ${JSON.stringify(value)}`);
  }

  private ref(id: string): string {
    const { region, account } = this.context;
    const pseudo: Record<string, string> = {
      'AWS::Partition': 'aws',
      'AWS::Region': region,
      'AWS::AccountId': account,
      'AWS::URLSuffix': 'amazonaws.com',
      'AWS::StackName': 'ModelGateway',
    };
    if (pseudo[id]) return pseudo[id];
    switch (this.types[id]) {
      case 'AWS::SQS::Queue':
        return `https://sqs.${region}.amazonaws.com/${account}/${id}`;
      case 'AWS::SecretsManager::Secret':
        return `arn:aws:secretsmanager:${region}:${account}:secret:${id}-AbCdEf`;
      case 'AWS::S3::Bucket':
        return id.toLowerCase();
      case 'AWS::SNS::Topic':
        return `arn:aws:sns:${region}:${account}:${id}`;
      case undefined:
        throw new Error(`No resource ${id} in the template`);
      default:
        return id;
    }
  }

  private attribute(id: string, attribute: string): string {
    const { region, account } = this.context;
    const type = this.types[id];
    if (attribute === 'Arn') {
      switch (type) {
        case 'AWS::DynamoDB::GlobalTable':
        case 'AWS::DynamoDB::Table':
          return `arn:aws:dynamodb:${region}:${account}:table/${id}`;
        case 'AWS::SQS::Queue':
          return `arn:aws:sqs:${region}:${account}:${id}`;
        case 'AWS::S3::Bucket':
          return `arn:aws:s3:::${id.toLowerCase()}`;
        case 'AWS::Logs::LogGroup':
          return `arn:aws:logs:${region}:${account}:log-group:${id}:*`;
        case 'AWS::Lambda::Function':
          return `arn:aws:lambda:${region}:${account}:function:${id}`;
        case 'AWS::SNS::Topic':
          return `arn:aws:sns:${region}:${account}:${id}`;
        default:
          throw new Error(`No ARN known for ${type ?? 'unknown'} ${id}`);
      }
    }
    if (attribute === 'QueueName') return id;
    throw new Error(`Cannot resolve ${id}.${attribute}`);
  }
}

/** IAM's wildcard match: `*` any run of characters (slashes included), `?` one character. */
export function iamPatternMatches(pattern: string, value: string): boolean {
  const expression = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${expression}$`).test(value);
}
