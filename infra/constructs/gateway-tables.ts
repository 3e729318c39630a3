import { RemovalPolicy } from 'aws-cdk-lib';
import { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import {
  COUNTER_TTL_ATTRIBUTE,
  countersTableDefinition,
  GENERATION_TTL_ATTRIBUTE,
  generationsTableDefinition,
  keysTableDefinition,
  projectsTableDefinition,
} from '../../shared/adapters/aws/table-definitions.ts';
import { tablePropsFromDefinition } from './table-props.ts';

export interface GatewayTablesProps {
  /** Refuse `DeleteTable` until turned off: keys, projects and spend outlive a careless `cdk destroy`. */
  deletionProtection: boolean;
}

/**
 * The gateway's DynamoDB tables, on demand with point-in-time recovery; key schemas from
 * shared/adapters/aws/table-definitions.ts. Names are CloudFormation's and reach the functions as
 * environment variables.
 */
export class GatewayTables extends Construct {
  readonly keys: TableV2;
  readonly projects: TableV2;
  readonly generations: TableV2;
  readonly counters: TableV2;

  constructor(scope: Construct, id: string, props: GatewayTablesProps) {
    super(scope, id);
    const durable = {
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.deletionProtection,
      removalPolicy: RemovalPolicy.RETAIN,
    };
    // The definitions take a name for the local store; in AWS CloudFormation names the tables.
    this.keys = new TableV2(this, 'Keys', { ...tablePropsFromDefinition(keysTableDefinition('keys')), ...durable });
    this.projects = new TableV2(this, 'Projects', { ...tablePropsFromDefinition(projectsTableDefinition('projects')), ...durable });
    this.generations = new TableV2(this, 'Generations', {
      ...tablePropsFromDefinition(generationsTableDefinition('generations')),
      ...durable,
      timeToLiveAttribute: GENERATION_TTL_ATTRIBUTE,
    });
    this.counters = new TableV2(this, 'Counters', {
      ...tablePropsFromDefinition(countersTableDefinition('counters')),
      ...durable,
      timeToLiveAttribute: COUNTER_TTL_ATTRIBUTE,
    });
  }
}
