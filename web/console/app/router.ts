/** The console's pages, addressed by the URL fragment: `#/projects`, `#/projects/acme/keys`… */
export const PROJECT_SECTIONS = ['overview', 'keys', 'models', 'providers', 'usage', 'members', 'audit'] as const;
export type ProjectSection = (typeof PROJECT_SECTIONS)[number];

export type Route = { page: 'projects' } | { page: 'project'; projectId: string; section: ProjectSection };

export function parseRoute(hash: string): Route {
  const [first, projectId, section] = hash.replace(/^#\/?/, '').split('/').map((part) => decodeURIComponent(part));
  if (first === 'projects' && projectId) {
    const known = PROJECT_SECTIONS.find((candidate) => candidate === (section ?? 'overview'));
    return { page: 'project', projectId, section: known ?? 'overview' };
  }
  return { page: 'projects' };
}

export function projectHref(projectId: string, section: ProjectSection = 'overview'): string {
  return `#/projects/${encodeURIComponent(projectId)}${section === 'overview' ? '' : `/${section}`}`;
}
