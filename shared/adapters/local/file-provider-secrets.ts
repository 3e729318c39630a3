import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as z from 'zod';
import type { ProviderSecrets } from '../../core/ports.ts';
import { PARSED_RARELY } from '../../core/parsed-rarely.ts';

const secretFileSchema = z.record(z.string(), z.string());

/**
 * The local secret store: one JSON file readable and writable by its owner only (mode 0600), written
 * atomically so a crash never leaves half a file.
 */
export class FileProviderSecrets implements ProviderSecrets {
  /** Writes of this instance, one after another: each reads, changes and replaces the whole file. */
  private writes: Promise<void> = Promise.resolve();

  private readonly filePath: string;

  constructor(filePath: string) {
    this.filePath = filePath;
  }

  async getApiKey(projectId: string, provider: string): Promise<string | undefined> {
    return (await this.readAll())[`${projectId}/${provider}`];
  }

  putApiKey(projectId: string, provider: string, apiKey: string): Promise<void> {
    return this.change((secrets) => {
      secrets[`${projectId}/${provider}`] = apiKey;
    });
  }

  deleteApiKey(projectId: string, provider: string): Promise<void> {
    return this.change((secrets) => {
      delete secrets[`${projectId}/${provider}`];
    });
  }

  private change(edit: (secrets: Record<string, string>) => void): Promise<void> {
    const write = this.writes.then(() => this.rewrite(edit));
    this.writes = write.catch(() => undefined);
    return write;
  }

  private async rewrite(edit: (secrets: Record<string, string>) => void): Promise<void> {
    const secrets = await this.readAll();
    edit(secrets);
    await mkdir(dirname(this.filePath), { recursive: true, mode: 0o700 });
    const temporary = `${this.filePath}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    await rename(temporary, this.filePath);
  }

  private async readAll(): Promise<Record<string, string>> {
    try {
      return secretFileSchema.parse(JSON.parse(await readFile(this.filePath, 'utf8')), PARSED_RARELY);
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return {};
      throw error;
    }
  }
}
