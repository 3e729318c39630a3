import { AttributeType, ProjectionType } from 'aws-cdk-lib/aws-dynamodb';
import { describe, expect, it } from 'vitest';
import { tablePropsFromDefinition } from '../../infra/constructs/table-props.ts';
import { countersTableDefinition, keysTableDefinition, projectsTableDefinition } from '../../shared/adapters/aws/table-definitions.ts';

describe('tablePropsFromDefinition', () => {
  it('maps the partition key, the sort key and on-demand billing', () => {
    const props = tablePropsFromDefinition(projectsTableDefinition('projects'));
    expect(props.partitionKey).toEqual({ name: 'projectId', type: AttributeType.STRING });
    expect(props.sortKey).toEqual({ name: 'itemKey', type: AttributeType.STRING });
    expect(props.billing).toBeDefined();
    expect(props.globalSecondaryIndexes).toBeUndefined();
  });

  it('maps global secondary indexes with their keys and projection', () => {
    expect(tablePropsFromDefinition(keysTableDefinition('keys')).globalSecondaryIndexes).toEqual([
      {
        indexName: 'by-project',
        partitionKey: { name: 'projectId', type: AttributeType.STRING },
        sortKey: { name: 'keyId', type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      },
    ]);
  });

  it('maps a table without a sort key', () => {
    const props = tablePropsFromDefinition(countersTableDefinition('counters'));
    expect(props.partitionKey).toEqual({ name: 'counterKey', type: AttributeType.STRING });
    expect(props).not.toHaveProperty('sortKey');
  });

  it('refuses what it cannot map faithfully', () => {
    expect(() => tablePropsFromDefinition({ ...countersTableDefinition('c'), BillingMode: 'PROVISIONED' })).toThrow(/on-demand/);
    expect(() => tablePropsFromDefinition({ ...countersTableDefinition('c'), AttributeDefinitions: [] })).toThrow(/no attribute definition/);
  });
});
