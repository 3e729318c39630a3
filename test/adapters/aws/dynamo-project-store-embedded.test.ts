import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoProjectStore } from '../../../shared/adapters/aws/dynamo-project-store.ts';
import type { AllowedModel, Project, ProviderConfig, RateCardEntry } from '../../../shared/core/project-config.ts';
import { startEmbeddedStore, type EmbeddedStore } from '../../../tools/local-host/embedded-store.ts';
import { embeddedStoreDocuments } from '../../../shared/wiring/dynamo-documents.ts';

const at = '2025-01-02T03:04:05.000Z';

function project(projectId: string, overrides: Partial<Project> = {}): Project {
  return { projectId, name: projectId, plan: 'active', usageInjection: false, failover: false, mcp: false, createdAt: at, updatedAt: at, ...overrides };
}
const openai: ProviderConfig = { provider: 'openai', protocols: ['openai-chat'], auth: 'bearer', baseUrl: 'https://api.openai.com/v1', hasApiKey: true, updatedAt: at };
const mini: AllowedModel = { slug: 'openai/gpt-4o-mini', provider: 'openai', model: 'gpt-4o-mini', alias: 'mini', kind: 'chat', createdAt: at };
const miniRate: RateCardEntry = { slug: 'openai/gpt-4o-mini', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600 };

describe('DynamoProjectStore', () => {
  describe('against the embedded store', () => {
    let dataDir: string;
    let embedded: EmbeddedStore | undefined;
    let store: DynamoProjectStore;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'dynamo-project-store-'));
      const started = await startEmbeddedStore(dataDir, { keys: 'test-keys', projects: 'test-projects' });
      embedded = started;
      store = new DynamoProjectStore(embeddedStoreDocuments(started.endpoint), 'test-projects');
    });
    afterAll(async () => {
      await embedded?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('creates a project once, then only overwrites it on request', async () => {
      await expect(store.putProject(project('once'), { mustNotExist: true })).resolves.toBe(true);
      await expect(store.putProject(project('once', { name: 'Second' }), { mustNotExist: true })).resolves.toBe(false);
      expect((await store.loadProjectConfig('once'))?.project.name).toBe('once');

      await expect(store.putProject(project('once', { name: 'Third', plan: 'inactive' }), { mustNotExist: false })).resolves.toBe(true);
      expect((await store.loadProjectConfig('once'))?.project).toEqual(project('once', { name: 'Third', plan: 'inactive' }));
    });

    it('loads a project with its providers, models and rates', async () => {
      const mock: ProviderConfig = { provider: 'mock', protocols: ['openai-chat'], auth: 'bearer', baseUrl: 'mock://offline/v1', hasApiKey: false, updatedAt: at };
      const gpt4o: AllowedModel = { slug: 'openai/gpt-4o', provider: 'openai', model: 'gpt-4o', kind: 'chat', createdAt: at };
      await store.putProject(project('full'), { mustNotExist: true });
      await store.putProvider('full', openai);
      await store.putProvider('full', mock);
      await store.putModel('full', mini, miniRate);
      await store.putModel('full', gpt4o, undefined);

      const config = await store.loadProjectConfig('full');

      expect(config?.project).toEqual(project('full'));
      expect(Object.fromEntries(config?.providers ?? [])).toEqual({ openai, mock });
      expect([...(config?.models ?? [])].sort((a, b) => a.slug.localeCompare(b.slug))).toEqual([gpt4o, mini]);
      expect(Object.fromEntries(config?.rates ?? [])).toEqual({ [miniRate.slug]: miniRate });
    });

    it('answers undefined for a project that does not exist', async () => {
      await expect(store.loadProjectConfig('never-created')).resolves.toBeUndefined();
    });

    it('keeps the organisation rate card under @org, apart from every project', async () => {
      const orgRate: RateCardEntry = { slug: 'openai/gpt-4o', inputPriceMicrosPer1k: 2500, outputPriceMicrosPer1k: 10000 };
      await store.putProject(project('priced'), { mustNotExist: true });
      await store.putOrgRate(orgRate);
      await store.putOrgRate({ ...orgRate, slug: 'anthropic/claude', inputPriceMicrosPer1k: 3000 });

      const card = await store.loadOrgRateCard();

      expect(card.get('openai/gpt-4o')).toEqual(orgRate);
      expect(card.get('anthropic/claude')).toEqual({ ...orgRate, slug: 'anthropic/claude', inputPriceMicrosPer1k: 3000 });
      expect((await store.loadProjectConfig('priced'))?.rates.size).toBe(0);
      await expect(store.loadProjectConfig('@org')).resolves.toBeUndefined();
    });

    it('removes a model together with its project rate', async () => {
      await store.putProject(project('trim'), { mustNotExist: true });
      await store.putModel('trim', mini, miniRate);

      await expect(store.removeModel('trim', mini.slug)).resolves.toBe(true);
      const config = await store.loadProjectConfig('trim');
      expect(config?.models).toEqual([]);
      expect(config?.rates.size).toBe(0);
      await expect(store.removeModel('trim', mini.slug)).resolves.toBe(false);
    });

    it('removes a provider and leaves the rest of the project as it was', async () => {
      await store.putProject(project('unplug'), { mustNotExist: true });
      await store.putProvider('unplug', openai);
      await store.putModel('unplug', mini, miniRate);

      await expect(store.removeProvider('unplug', 'openai')).resolves.toBe(true);
      const config = await store.loadProjectConfig('unplug');
      expect(config?.providers.size).toBe(0);
      expect(config?.models).toEqual([mini]);
      await expect(store.removeProvider('unplug', 'openai')).resolves.toBe(false);
    });

    it('lists every project record, and nothing else of the table', async () => {
      await store.putProject(project('listed-a'), { mustNotExist: true });
      await store.putProject(project('listed-b', { plan: 'inactive' }), { mustNotExist: true });
      await store.putProvider('listed-a', openai);
      await store.putModel('listed-a', mini, miniRate);
      await store.putOrgRate(miniRate);

      const projects = await store.listProjects();

      expect(projects.filter((entry) => entry.projectId.startsWith('listed-'))).toEqual(
        expect.arrayContaining([project('listed-a'), project('listed-b', { plan: 'inactive' })]),
      );
      expect(projects.every((entry) => entry.projectId !== '@org')).toBe(true);
      expect(new Set(projects.map((entry) => entry.projectId)).size).toBe(projects.length);
    });

    it("keeps projects' partitions apart", async () => {
      await store.putProject(project('left'), { mustNotExist: true });
      await store.putProject(project('right'), { mustNotExist: true });
      await store.putModel('left', mini, miniRate);

      const right = await store.loadProjectConfig('right');
      expect(right?.models).toEqual([]);
      expect(right?.rates.size).toBe(0);
      expect((await store.loadProjectConfig('left'))?.models).toEqual([mini]);
    });
  });
});
