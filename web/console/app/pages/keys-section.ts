import { MAX_NAME_LENGTH } from '../../../../shared/core/name-length.ts';
import { api } from '../api.ts';
import type { CreatedKey, Key } from '../api-types.ts';
import { confirmAction } from '../dialog.ts';
import { h, replaceChildren } from '../dom.ts';
import { announce } from '../status.ts';
import { dataTable, field, timeCell } from '../table.ts';
import type { SectionContext } from './project-page.ts';

/** API keys: the list (owners see all, members their own), a form for a member key, disabling and revocation. */
export async function renderKeysSection({ project, session, container }: SectionContext): Promise<void> {
  const base = `/projects/${encodeURIComponent(project.id)}/keys`;
  const secretSlot = h('div', { class: 'secret-slot' });
  const listSlot = h('div');

  const refresh = async () => {
    const { keys } = await api<{ keys: Key[] }>(base);
    const newestFirst = [...keys].sort((a, b) => b.created_at.localeCompare(a.created_at));
    replaceChildren(
      listSlot,
      dataTable(
        'API keys of the project',
        [
          { label: 'Name', cell: (key) => key.name },
          { label: 'Key', cell: (key) => h('code', {}, key.hint) },
          { label: 'Owner', cell: (key) => key.member ?? h('span', { class: 'muted' }, 'project key') },
          { label: 'Created', cell: (key) => timeCell(key.created_at) },
          { label: 'Last used', cell: (key) => timeCell(key.last_used_at) },
          { label: 'Status', cell: (key) => h('span', { class: `badge ${key.status}` }, key.status) },
          { label: 'Actions', cell: (key) => (key.status !== 'revoked' && (project.role === 'owner' || key.member === session.member) ? h('div', { class: 'row-actions' }, mayEnableOrDisable(key) ? enableButton(key) : h('span', { class: 'muted' }, `disabled by ${key.disabled_by ?? 'an owner'}`), revokeButton(key)) : '') },
        ],
        newestFirst,
        project.role === 'owner' ? 'This project has no API keys yet.' : 'You have no API keys in this project yet.',
      ),
    );
  };

  // A member enables only a key they disabled themselves; the API refuses the rest (disabled_by_other).
  const mayEnableOrDisable = (key: Key) => project.role === 'owner' || key.status !== 'disabled' || key.disabled_by === session.member;

  // Reversible, so no confirmation: the key is refused (403) while disabled and works again once enabled.
  const enableButton = (key: Key) => {
    const action = key.status === 'disabled' ? 'enable' : 'disable';
    return h(
      'button',
      {
        type: 'button',
        class: 'quiet small',
        'aria-label': `${action === 'enable' ? 'Enable' : 'Disable'} the key ${key.name} (${key.hint})`,
        onclick: async () => {
          await api(`${base}/${encodeURIComponent(key.id)}/${action}`, { method: 'POST', body: {} });
          announce(`The key ${key.name} is ${action}d.`);
          await refresh();
        },
      },
      action === 'enable' ? 'Enable' : 'Disable',
    );
  };

  const revokeButton = (key: Key) =>
    h(
      'button',
      {
        type: 'button',
        class: 'danger small',
        'aria-label': `Revoke the key ${key.name} (${key.hint})`,
        onclick: async () => {
          const confirmed = await confirmAction({
            title: `Revoke “${key.name}”?`,
            message: `Applications using ${key.hint} will be refused (401) from now on. This cannot be undone.`,
            confirmLabel: 'Revoke key',
          });
          if (!confirmed) return;
          await api(`${base}/${encodeURIComponent(key.id)}/revoke`, { method: 'POST', body: {} });
          announce(`The key ${key.name} is revoked.`);
          await refresh();
        },
      },
      'Revoke',
    );

  const nameInput = h('input', { id: 'new-key-name', name: 'name', maxlength: MAX_NAME_LENGTH, placeholder: 'laptop', autocomplete: 'off' });
  const form = h(
    'form',
    {
      class: 'inline-form',
      'aria-label': 'Create a member key',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const name = nameInput.value.trim();
        const created = await api<CreatedKey>(base, { method: 'POST', body: name ? { name } : {} });
        nameInput.value = '';
        showSecretOnce(secretSlot, created, () => nameInput.focus());
        await refresh();
      },
    },
    field('Name of the new key', nameInput, `A member key of ${session.member}.`),
    h('button', { type: 'submit', class: 'primary' }, 'Create key'),
  );

  container.append(h('div', { class: 'card' }, h('h3', {}, 'Create a member key'), form, secretSlot), listSlot);
  await refresh();
}

/**
 * The new key, shown this once with a copy button. "Done" removes it from the page (and the page keeps
 * it nowhere else); leaving the page removes it too.
 */
function showSecretOnce(slot: HTMLElement, created: CreatedKey, afterwards: () => void): void {
  const secret = h('input', { id: 'new-key-secret', class: 'secret', readonly: true, value: created.key, 'aria-label': 'The new API key', spellcheck: 'false' });
  const panel = h(
    'div',
    { class: 'secret-panel', role: 'region', 'aria-labelledby': 'secret-title' },
    h('h4', { id: 'secret-title' }, `Your new key “${created.name}”`),
    h('p', {}, 'Copy it now: it is shown this once and cannot be recovered. Only its hint is kept.'),
    h(
      'div',
      { class: 'secret-row' },
      secret,
      h('button', { type: 'button', class: 'primary', onclick: () => void copySecret(secret) }, 'Copy'),
      h(
        'button',
        {
          type: 'button',
          class: 'quiet',
          onclick: () => {
            secret.value = '';
            slot.replaceChildren();
            announce('The key is no longer shown.');
            afterwards();
          },
        },
        'Done',
      ),
    ),
  );
  slot.replaceChildren(panel);
  secret.focus();
  secret.select();
}

async function copySecret(input: HTMLInputElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    // Without clipboard permission, the selected text can still be copied with the keyboard.
    input.select();
    if (!document.execCommand('copy')) {
      announce('Copy with Ctrl+C (⌘C): the key is selected.', 'error');
      return;
    }
  }
  announce('Copied to the clipboard.');
}
