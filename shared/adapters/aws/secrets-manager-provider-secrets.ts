import * as z from 'zod';
import type { ProviderSecrets } from '../../core/ports.ts';
import { PARSED_RARELY } from '../../core/parsed-rarely.ts';
import { isAwsError, type AwsJsonService } from '../../transport/aws-json-service.ts';

const secretValueSchema = z.object({ apiKey: z.string().min(1) });

/** Secrets Manager's operations, as its JSON protocol names them (`secretsmanager.GetSecretValue`). */
export type SecretsManagerCalls = Pick<AwsJsonService, 'call'>;

/** Provider keys in Secrets Manager, one secret per project and provider: `<prefix><projectId>/<provider>`. */
export class SecretsManagerProviderSecrets implements ProviderSecrets {
  private readonly client: SecretsManagerCalls;
  private readonly prefix: string;

  constructor(client: SecretsManagerCalls, prefix: string) {
    this.client = client;
    this.prefix = prefix;
  }

  async getApiKey(projectId: string, provider: string): Promise<string | undefined> {
    try {
      const { SecretString } = await this.client.call('GetSecretValue', { SecretId: this.secretName(projectId, provider) });
      return typeof SecretString === 'string' && SecretString ? secretValueSchema.parse(JSON.parse(SecretString), PARSED_RARELY).apiKey : undefined;
    } catch (error) {
      if (isAwsError(error, 'ResourceNotFoundException')) return undefined;
      throw error;
    }
  }

  async putApiKey(projectId: string, provider: string, apiKey: string): Promise<void> {
    const SecretString = JSON.stringify({ apiKey });
    const name = this.secretName(projectId, provider);
    try {
      await this.client.call('PutSecretValue', { SecretId: name, SecretString });
    } catch (error) {
      if (!isAwsError(error, 'ResourceNotFoundException')) throw error;
      try {
        await this.client.call('CreateSecret', {
          Name: name,
          SecretString,
          Description: `Model gateway: ${provider} API key of project ${projectId}`,
        });
      } catch (createError) {
        // Another admin call created it a moment ago: store this value as its newest version.
        if (!isAwsError(createError, 'ResourceExistsException')) throw createError;
        await this.client.call('PutSecretValue', { SecretId: name, SecretString });
      }
    }
  }

  /**
   * Without a recovery window: a secret scheduled for deletion keeps its name, so a later `provider set`
   * of the same provider could not create it again.
   */
  async deleteApiKey(projectId: string, provider: string): Promise<void> {
    try {
      await this.client.call('DeleteSecret', { SecretId: this.secretName(projectId, provider), ForceDeleteWithoutRecovery: true });
    } catch (error) {
      if (!isAwsError(error, 'ResourceNotFoundException')) throw error;
    }
  }

  private secretName(projectId: string, provider: string): string {
    return `${this.prefix}${projectId}/${provider}`;
  }
}
