import { api } from '../api.ts';
import type { Members, Membership } from '../api-types.ts';
import { confirmAction } from '../dialog.ts';
import { h, replaceChildren } from '../dom.ts';
import { announce } from '../status.ts';
import { dataTable, field, timeCell } from '../table.ts';
import type { SectionContext } from './project-page.ts';

/** The project's people and roles; owners add people and remove them (which also refuses their keys). */
export async function renderMembersSection({ project, session, container }: SectionContext): Promise<void> {
  const base = `/projects/${encodeURIComponent(project.id)}/members`;
  const owner = project.role === 'owner';
  const listSlot = h('div');

  const show = ({ members, removed_members: removed }: Members) =>
    replaceChildren(
      listSlot,
      dataTable(
        'Members of the project',
        [
          { label: 'Member', cell: (member) => (member.member === session.member ? `${member.member} (you)` : member.member) },
          { label: 'Role', cell: (member) => h('span', { class: `badge ${member.role}` }, member.role) },
          { label: 'Added', cell: (member) => timeCell(member.added_at) },
          ...(owner ? [{ label: 'Actions', cell: (member: Membership) => removeButton(member) }] : []),
        ],
        members,
        'Nobody has console access to this project yet.',
      ),
      removed.length > 0 ? h('p', { class: 'muted' }, 'Removed (their keys are refused): ', removed.join(', ')) : null,
    );

  const removeButton = (member: Membership) =>
    h(
      'button',
      {
        type: 'button',
        class: 'danger small',
        'aria-label': `Remove ${member.member} from the project`,
        onclick: async () => {
          const confirmed = await confirmAction({
            title: `Remove ${member.member}?`,
            message: 'They lose access to this project, and every key issued to them is refused until they are added again.',
            confirmLabel: 'Remove member',
          });
          if (!confirmed) return;
          show(await api<Members>(`${base}/remove`, { method: 'POST', body: { member: member.member } }));
          announce(`${member.member} was removed.`);
        },
      },
      'Remove',
    );

  container.append(listSlot);
  show(await api<Members>(base));
  if (owner) container.append(addForm(base, session.member, async () => show(await api<Members>(base))));
}

function addForm(base: string, self: string, refresh: () => Promise<void>): HTMLElement {
  const member = h('input', { id: 'member-email', type: 'email', required: true, placeholder: 'name@example.com', autocomplete: 'off' });
  const role = h('select', { id: 'member-role' }, h('option', { value: 'member' }, 'member'), h('option', { value: 'owner' }, 'owner'));
  const form = h(
    'form',
    {
      class: 'inline-form',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        // Members are named in lower case: the person signed in may type their own address otherwise.
        const demotesSelf = member.value.trim().toLowerCase() === self.toLowerCase() && role.value === 'member';
        if (demotesSelf && !(await confirmAction({ title: 'Stop owning this project?', message: 'You keep access as a member, but can no longer manage its people, keys of others, models, providers or audit trail. Another owner can make you an owner again.', confirmLabel: 'Become a member' }))) return;
        const changed = await api<Membership>(base, { method: 'POST', body: { member: member.value.trim(), role: role.value } });
        announce(`${changed.member} is ${changed.role === 'owner' ? 'an owner' : 'a member'} of the project.`);
        form.reset();
        // The page was drawn for an owner: drawn again, it shows what a member sees.
        if (demotesSelf) window.dispatchEvent(new HashChangeEvent('hashchange'));
        else await refresh();
      },
    },
    field('E-mail', member),
    field('Role', role),
    h('button', { type: 'submit', class: 'primary' }, 'Add or change'),
  );
  return h('div', { class: 'card' }, h('h3', {}, 'Add a person, or change their role'), form);
}
