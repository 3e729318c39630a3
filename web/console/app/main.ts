import { ApiError, whenSignedOut } from './api.ts';
import { byId } from './dom.ts';
import { renderProblemPage } from './pages/problem-page.ts';
import { renderProjectPage } from './pages/project-page.ts';
import { renderProjectsPage } from './pages/projects-page.ts';
import { renderSignInPage } from './pages/sign-in-page.ts';
import { parseRoute, type Route } from './router.ts';
import { clearSession, loadSession, saveSession, whenSessionEndsElsewhere } from './session.ts';
import { cognitoSignOutUrl, completeCognitoSignIn, endLocalSession, redeemLocalSignInCode } from './sign-in.ts';
import { loadSiteConfig, type ConsoleSiteConfig } from './site-config.ts';
import { announce } from './status.ts';

/** How often the page checks that the session has not expired while it is open. */
const EXPIRY_CHECK_MS = 15_000;

async function boot(): Promise<void> {
  const config = await loadSiteConfig();
  const main = byId('main');
  let signInProblem: string | undefined;
  try {
    await completeSignIn(config);
  } catch (error) {
    signInProblem = error instanceof Error ? error.message : String(error);
  }
  const signOut = (message: string) => {
    clearSession();
    showAccount(undefined);
    renderSignInPage(main, config, message);
  };
  whenSignedOut(signOut);
  // Buttons and forms call the API without their own error handling: every refusal is said here.
  window.addEventListener('unhandledrejection', (event) => {
    // Handled here: the browser's console must not also report each refusal as an uncaught error.
    event.preventDefault();
    const reason: unknown = event.reason;
    if (reason instanceof Error && reason.name === 'ApiError' && (reason as { status?: number }).status === 401) return;
    announce(reason instanceof Error ? reason.message : String(reason), 'error');
  });
  byId('sign-out').addEventListener('click', () => void signOutNow(config));
  window.addEventListener('hashchange', () => {
    // A sign-in link opened in a tab that already shows the console changes only the fragment.
    if (location.hash.startsWith('#signin=')) void signInThenRender(config, main);
    else void render(config, true);
  });
  setInterval(() => {
    if (!loadSession() && !byId('sign-out').hidden) signOut('Your session has expired: sign in again.');
  }, EXPIRY_CHECK_MS);
  whenSessionEndsElsewhere((signedOut) => {
    if (!byId('sign-out').hidden) signOut(signedOut ? 'You signed out in another tab.' : 'Your session has expired: sign in again.');
  });
  // The skip link moves focus to the page's content; followed as a link, its #main would be a route.
  byId('skip-link').addEventListener('click', (event) => {
    event.preventDefault();
    main.focus();
  });
  if (signInProblem) renderSignInPage(main, config, signInProblem);
  else await render(config, false);
}

async function signInThenRender(config: ConsoleSiteConfig, main: HTMLElement): Promise<void> {
  try {
    await completeSignIn(config);
  } catch (error) {
    renderSignInPage(main, config, error instanceof Error ? error.message : String(error));
    return;
  }
  await render(config, true);
}

/** Finishes a sign-in that brought the person back here: a local one-time link, or Cognito's redirect. */
async function completeSignIn(config: ConsoleSiteConfig): Promise<void> {
  if (config.signIn === 'local' && location.hash.startsWith('#signin=')) {
    const code = location.hash.slice('#signin='.length);
    // The code leaves the address bar (and history) before anything else happens.
    history.replaceState(null, '', `${location.pathname}#/projects`);
    saveSession(await redeemLocalSignInCode(code));
    return;
  }
  const query = new URLSearchParams(location.search);
  const code = query.get('code');
  const state = query.get('state');
  if (config.signIn === 'cognito' && code && state) {
    history.replaceState(null, '', `${location.pathname}#/projects`);
    saveSession(await completeCognitoSignIn(config, code, state));
  }
}

async function render(config: ConsoleSiteConfig, moveFocus: boolean): Promise<void> {
  const main = byId('main');
  const session = loadSession();
  showAccount(session?.member);
  if (!session) {
    renderSignInPage(main, config);
    return;
  }
  const route = parseRoute(location.hash);
  try {
    if (route.page === 'projects') await renderProjectsPage(main);
    else if (route.page === 'project') await renderProjectPage(main, route, session);
    else renderProblemPage(main, { title: 'Not a console address', message: `The address ${route.address} is not one of the console's: part of it is not valid percent-encoding.` });
  } catch (error) {
    // 401: the page already asks to sign in again.
    if (error instanceof ApiError && error.status === 401) return;
    renderProblemPage(main, describeProblem(route, error));
  }
  if (moveFocus) main.focus();
}

/**
 * The top bar's account: who is signed in and the Sign out button, or nothing once the session is over
 * (also the expiry check's cue: a visible button with no session left means "sign out now").
 */
function showAccount(member: string | undefined): void {
  byId('who').textContent = member ?? '';
  byId<HTMLButtonElement>('sign-out').hidden = member === undefined;
}

/** What to say when a page could not be drawn: a project the person may not open, or any other failure. */
function describeProblem(route: Route, error: unknown): Parameters<typeof renderProblemPage>[1] {
  const message = error instanceof Error ? error.message : String(error);
  const projectId = route.page === 'project' ? route.projectId : undefined;
  if (projectId !== undefined && error instanceof ApiError && (error.status === 403 || error.status === 404)) {
    return { title: 'No access to this project', message, detail: 'It may not exist, or you are not one of its members: an owner of the project can add you.', projectId };
  }
  return { title: 'This page could not be shown', message, projectId };
}

async function signOutNow(config: ConsoleSiteConfig): Promise<void> {
  const session = loadSession();
  clearSession();
  if (config.signIn === 'cognito') {
    location.assign(cognitoSignOutUrl(config));
    return;
  }
  if (session) await endLocalSession(session.token);
  showAccount(undefined);
  renderSignInPage(byId('main'), config, 'You are signed out.');
}

void boot().catch((error: unknown) => announce(error instanceof Error ? error.message : String(error), 'error'));
