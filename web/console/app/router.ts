/** The console's pages, addressed by the URL fragment: `#/projects`, `#/projects/acme/keys`… */
export const PROJECT_SECTIONS = ['overview', 'keys', 'models', 'providers', 'usage', 'members', 'audit'] as const;
export type ProjectSection = (typeof PROJECT_SECTIONS)[number];

/** `malformed`: an address whose parts are not valid percent-encoding (`#/projects/%E0%A4%A`). */
export type Route = { page: 'projects' } | { page: 'project'; projectId: string; section: ProjectSection } | { page: 'malformed'; address: string };

export function parseRoute(hash: string): Route {
  const parts = decodeParts(hash.replace(/^#\/?/, '').split('/'));
  if (!parts) return { page: 'malformed', address: hash };
  const [first, projectId, section] = parts;
  if (first === 'projects' && projectId) {
    const known = PROJECT_SECTIONS.find((candidate) => candidate === (section ?? 'overview'));
    return { page: 'project', projectId, section: known ?? 'overview' };
  }
  return { page: 'projects' };
}

function decodeParts(parts: string[]): string[] | undefined {
  try {
    return parts.map((part) => decodeURIComponent(part));
  } catch {
    return undefined;
  }
}

export function projectHref(projectId: string, section: ProjectSection = 'overview'): string {
  return `#/projects/${encodeURIComponent(projectId)}${section === 'overview' ? '' : `/${section}`}`;
}
