import { knownProviders } from '../../../../shared/core/known-providers.ts';
import { api } from '../api.ts';
import type { Project } from '../api-types.ts';
import { h, replaceChildren } from '../dom.ts';
import { formatTime } from '../format.ts';
import { announce } from '../status.ts';
import { dataTable, field } from '../table.ts';
import type { SectionContext } from './project-page.ts';

type Provider = Project['providers'][number];

/** The project's providers; owners set or replace a provider's key, which is never shown back. */
export function renderProvidersSection({ project, container }: SectionContext): void {
  const listSlot = h('div');
  const show = (providers: Provider[]) =>
    replaceChildren(
      listSlot,
      dataTable(
        'Providers of the project',
        [
          { label: 'Provider', cell: (provider) => provider.provider },
          { label: 'Protocols', cell: (provider) => provider.protocols.join(', ') },
          { label: 'Base URL', cell: (provider) => h('code', {}, provider.base_url) },
          { label: 'API key', cell: (provider) => (provider.has_api_key ? h('span', { class: 'badge active' }, 'set') : h('span', { class: 'muted' }, 'none')) },
        ],
        providers,
        'No provider is configured yet.',
      ),
    );
  container.append(listSlot);
  show(project.providers);
  if (project.role === 'owner') container.append(providerForm(project, show));
  else container.append(h('p', { class: 'muted' }, 'Only owners set provider keys.'));
}

function providerForm(project: Project, show: (providers: Provider[]) => void): HTMLElement {
  const name = h('input', { id: 'provider-name', required: true, list: 'known-providers', placeholder: 'openai', autocomplete: 'off' });
  const apiKey = h('input', { id: 'provider-key', type: 'password', autocomplete: 'off', spellcheck: 'false', placeholder: 'sk-…' });
  const baseUrl = h('input', { id: 'provider-base-url', type: 'url', placeholder: 'https://…/v1', autocomplete: 'off' });
  const protocol = h('select', { id: 'provider-protocol' }, h('option', { value: '' }, 'as known'), h('option', { value: 'openai' }, 'openai'), h('option', { value: 'anthropic' }, 'anthropic'));
  const form = h(
    'form',
    {
      class: 'grid-form',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const provider = name.value.trim();
        const keyGiven = apiKey.value !== '';
        const body = {
          ...(apiKey.value ? { apiKey: apiKey.value } : {}),
          ...(baseUrl.value.trim() ? { baseUrl: baseUrl.value.trim() } : {}),
          ...(protocol.value ? { protocol: protocol.value } : {}),
        };
        // The key leaves the page with the request: the field is cleared whatever the answer.
        apiKey.value = '';
        const updated = await api<Project>(`/projects/${encodeURIComponent(project.id)}/providers/${encodeURIComponent(provider)}`, { method: 'PUT', body });
        form.reset();
        const saved = `${provider} saved at ${formatTime(new Date().toISOString())}.`;
        const kept = updated.providers.find((entry) => entry.provider === provider)?.has_api_key;
        announce(`${saved} ${keyGiven ? 'Its key is stored and will not be shown again.' : kept ? 'Its stored key is kept.' : ''}`.trim());
        show(updated.providers);
      },
    },
    field('Provider', name, 'A known name, or your own with base URL and protocol'),
    field('API key', apiKey, 'Replaces the stored key; left empty, keeps it (a new host needs it again)'),
    field('Base URL', baseUrl, 'Known providers have theirs; give one to change it'),
    field('Protocol', protocol),
    h('button', { type: 'submit', class: 'primary' }, 'Save provider'),
    h('datalist', { id: 'known-providers' }, Object.keys(knownProviders).map((known) => h('option', { value: known }))),
  );
  return h('div', { class: 'card' }, h('h3', {}, 'Set or replace a provider key'), form);
}
