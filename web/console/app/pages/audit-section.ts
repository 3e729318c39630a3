import { api } from '../api.ts';
import type { AuditEntry } from '../api-types.ts';
import { h } from '../dom.ts';
import { dataTable, timeCell } from '../table.ts';
import type { SectionContext } from './project-page.ts';

/** Who changed what, and when, newest first (owners only). */
export async function renderAuditSection({ project, container }: SectionContext): Promise<void> {
  const { entries } = await api<{ entries: AuditEntry[] }>(`/projects/${encodeURIComponent(project.id)}/audit`);
  container.append(
    dataTable(
      'Audit trail',
      [
        { label: 'When', cell: (entry) => timeCell(entry.at) },
        { label: 'Who', cell: (entry) => entry.actor },
        { label: 'What', cell: (entry) => h('code', {}, entry.command) },
        {
          label: 'Details',
          cell: (entry) =>
            h('span', { class: 'details' }, Object.entries(entry.details).map(([name, value]) => h('span', { class: 'detail' }, `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`))),
        },
      ],
      entries,
      'No change has been recorded yet.',
    ),
    h('p', { class: 'muted' }, 'The latest 200 changes. Provider keys appear as “(set)”: the trail never holds a secret.'),
  );
}
