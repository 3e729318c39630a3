import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { handlerCode } from '../bundling/handler-code.ts';

/** Memory, timeout and concurrency of one function: props of the stack, with defaults per function. */
export interface FunctionSizing {
  memorySize: number;
  timeout: Duration;
  /** Unset: the function shares the account's unreserved concurrency. */
  reservedConcurrency?: number;
}

export interface GatewayFunctionProps extends FunctionSizing {
  /** `openai`, `writer`, `admin`: the logger's and the metrics' service is `gateway-<name>`. */
  name: string;
  entry: string;
  description: string;
  logRetention: RetentionDays;
  environment: Record<string, string>;
}

/**
 * One gateway function: Node.js 24 on arm64, bundled locally with esbuild (infra/bundling), JSON logs
 * in its own log group with a retention.
 */
export class GatewayFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: GatewayFunctionProps) {
    super(scope, id);
    const serviceName = `gateway-${props.name}`;
    // Kept when the stack goes: the route groups' logs hold usage records for replay, and all of them the audit trail.
    const logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy: RemovalPolicy.RETAIN });
    this.logGroup = logGroup;
    // Its own role, allowed to write to its own log group only (instead of AWSLambdaBasicExecutionRole's logs:*).
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    this.role = role;
    this.function = new LambdaFunction(this, 'Function', {
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      handler: 'index.handler',
      code: handlerCode(props.entry),
      role,
      memorySize: props.memorySize,
      timeout: props.timeout,
      ...(props.reservedConcurrency !== undefined ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: {
        POWERTOOLS_SERVICE_NAME: serviceName,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
    });
  }
}

/** Memory from measurement (docs/decisions/function-sizing.md); the deploy settings may change it. */
export const defaultSizing = {
  /** Streams for as long as a generation takes: Lambda's 15-minute ceiling (the request deadline is 14). */
  routeGroup: { memorySize: 512, timeout: Duration.minutes(15) },
  /** The tool bridge: a batch of 32 upstream answers of 6 MB, each held about three times, is ~660 MiB. */
  toolBridge: { memorySize: 1024, timeout: Duration.minutes(15) },
  writer: { memorySize: 256, timeout: Duration.seconds(60) },
  admin: { memorySize: 256, timeout: Duration.seconds(30) },
  /** Holds a day's usage rows while it merges them: ~3 KB a record measured, so ~300,000 records a day. */
  usageCompactor: { memorySize: 1024, timeout: Duration.minutes(15) },
  /** Usage pages wait for Athena (up to 20 s) within this. */
  console: { memorySize: 512, timeout: Duration.seconds(30) },
} satisfies Record<string, FunctionSizing>;
