import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import * as z from 'zod';
import type { ProviderSecrets } from '../../core/ports.ts';
import { PARSED_RARELY } from '../../core/parsed-rarely.ts';

const secretValueSchema = z.object({ apiKey: z.string().min(1) });

/** Provider keys in Secrets Manager, one secret per project and provider: `<prefix><projectId>/<provider>`. */
export class SecretsManagerProviderSecrets implements ProviderSecrets {
  private readonly client: SecretsManagerClient;
  private readonly prefix: string;

  constructor(client: SecretsManagerClient, prefix: string) {
    this.client = client;
    this.prefix = prefix;
  }

  async getApiKey(projectId: string, provider: string): Promise<string | undefined> {
    try {
      const { SecretString } = await this.client.send(new GetSecretValueCommand({ SecretId: this.secretName(projectId, provider) }));
      return SecretString ? secretValueSchema.parse(JSON.parse(SecretString), PARSED_RARELY).apiKey : undefined;
    } catch (error) {
      if (error instanceof ResourceNotFoundException) return undefined;
      throw error;
    }
  }

  async putApiKey(projectId: string, provider: string, apiKey: string): Promise<void> {
    const SecretString = JSON.stringify({ apiKey });
    const name = this.secretName(projectId, provider);
    try {
      await this.client.send(new PutSecretValueCommand({ SecretId: name, SecretString }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
      try {
        await this.client.send(
          new CreateSecretCommand({
            Name: name,
            SecretString,
            Description: `Model gateway: ${provider} API key of project ${projectId}`,
          }),
        );
      } catch (createError) {
        // Another admin call created it a moment ago: store this value as its newest version.
        if (!(createError instanceof ResourceExistsException)) throw createError;
        await this.client.send(new PutSecretValueCommand({ SecretId: name, SecretString }));
      }
    }
  }

  /**
   * Without a recovery window: a secret scheduled for deletion keeps its name, so a later `provider set`
   * of the same provider could not create it again.
   */
  async deleteApiKey(projectId: string, provider: string): Promise<void> {
    try {
      await this.client.send(new DeleteSecretCommand({ SecretId: this.secretName(projectId, provider), ForceDeleteWithoutRecovery: true }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }

  private secretName(projectId: string, provider: string): string {
    return `${this.prefix}${projectId}/${provider}`;
  }
}
