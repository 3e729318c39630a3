import type { Template } from 'aws-cdk-lib/assertions';
import { logicalId, resourcesOfType } from './synth-gateway.ts';

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, string>>;
}

/** Every Allow statement of the policies attached to the role of the function whose id starts with `prefix`. */
export function statementsOfFunction(template: Template, prefix: string): Statement[] {
  const functionId = logicalId(template, 'AWS::Lambda::Function', prefix);
  const fn = resourcesOfType(template, 'AWS::Lambda::Function')[functionId];
  const roleId = (fn?.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
    .filter(({ Properties }) => (Properties.Roles as unknown[]).some((role) => JSON.stringify(role) === JSON.stringify({ Ref: roleId })))
    .flatMap(({ Properties }) => (Properties.PolicyDocument as { Statement: Statement[] }).Statement)
    .filter((statement) => statement.Effect === 'Allow');
}

export function actionsOf(statement: Statement): string[] {
  return Array.isArray(statement.Action) ? statement.Action : [statement.Action];
}

export function resourcesOf(statement: Statement): unknown[] {
  return Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
}

/** The actions granted on any resource whose JSON mentions `resourceText` (a logical id or an ARN). */
export function actionsOn(statements: Statement[], resourceText: string): string[] {
  return statements
    .filter((statement) => resourcesOf(statement).some((resource) => JSON.stringify(resource).includes(resourceText)))
    .flatMap(actionsOf)
    .sort();
}
