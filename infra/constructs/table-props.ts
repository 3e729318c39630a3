import type { AttributeDefinition, CreateTableCommandInput, KeySchemaElement } from '@aws-sdk/client-dynamodb';
import { AttributeType, Billing, ProjectionType, type Attribute, type GlobalSecondaryIndexPropsV2, type TablePropsV2 } from 'aws-cdk-lib/aws-dynamodb';

/** The parts of a table that shared/adapters/aws/table-definitions.ts defines, so code and stack cannot drift. */
export type TableShapeProps = Required<Pick<TablePropsV2, 'partitionKey' | 'billing'>> &
  Pick<TablePropsV2, 'sortKey' | 'globalSecondaryIndexes'>;

const attributeTypes: Record<string, AttributeType> = { S: AttributeType.STRING, N: AttributeType.NUMBER, B: AttributeType.BINARY };
const projectionTypes: Record<string, ProjectionType> = {
  ALL: ProjectionType.ALL,
  KEYS_ONLY: ProjectionType.KEYS_ONLY,
  INCLUDE: ProjectionType.INCLUDE,
};

/**
 * Maps a CreateTable input (what the local store creates) to CDK TableV2 props. The table name is left
 * to CloudFormation; what the definitions cannot express (TTL, recovery, protection) is the stack's.
 */
export function tablePropsFromDefinition(definition: CreateTableCommandInput): TableShapeProps {
  if (definition.BillingMode !== 'PAY_PER_REQUEST') throw new Error(`${definition.TableName}: only on-demand tables are supported.`);
  if (definition.LocalSecondaryIndexes?.length) throw new Error(`${definition.TableName}: local secondary indexes are not mapped.`);
  const attributes = definition.AttributeDefinitions ?? [];
  const keys = keysOf(definition.KeySchema, attributes, definition.TableName);
  const globalSecondaryIndexes = (definition.GlobalSecondaryIndexes ?? []).map((index): GlobalSecondaryIndexPropsV2 => {
    const indexKeys = keysOf(index.KeySchema, attributes, index.IndexName);
    const projectionType = projectionTypes[index.Projection?.ProjectionType ?? 'ALL'];
    if (!index.IndexName || !projectionType) throw new Error(`${definition.TableName}: index without a name or with an unknown projection.`);
    return {
      indexName: index.IndexName,
      ...indexKeys,
      projectionType,
      ...(index.Projection?.NonKeyAttributes ? { nonKeyAttributes: index.Projection.NonKeyAttributes } : {}),
    };
  });
  return { ...keys, billing: Billing.onDemand(), ...(globalSecondaryIndexes.length > 0 ? { globalSecondaryIndexes } : {}) };
}

function keysOf(
  schema: KeySchemaElement[] | undefined,
  attributes: AttributeDefinition[],
  owner: string | undefined,
): { partitionKey: Attribute; sortKey?: Attribute } {
  const attribute = (keyType: 'HASH' | 'RANGE'): Attribute | undefined => {
    const name = schema?.find((element) => element.KeyType === keyType)?.AttributeName;
    if (name === undefined) return undefined;
    const type = attributeTypes[attributes.find((definition) => definition.AttributeName === name)?.AttributeType ?? ''];
    if (!type) throw new Error(`${owner}: key attribute ${name} has no attribute definition.`);
    return { name, type };
  };
  const partitionKey = attribute('HASH');
  if (!partitionKey) throw new Error(`${owner}: no partition key.`);
  const sortKey = attribute('RANGE');
  return sortKey ? { partitionKey, sortKey } : { partitionKey };
}
