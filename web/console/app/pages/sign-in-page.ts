import { h, replaceChildren } from '../dom.ts';
import { startCognitoSignIn } from '../sign-in.ts';
import type { ConsoleSiteConfig } from '../site-config.ts';

/** Signed out: how to sign in here (Cognito's hosted page, or the one-time link of the local host). */
export function renderSignInPage(main: HTMLElement, config: ConsoleSiteConfig, message?: string): void {
  document.title = 'Sign in · Model gateway console';
  const how =
    config.signIn === 'cognito'
      ? [
          h('p', {}, 'Sign in with your organisation account to manage the projects you belong to.'),
          h('button', { type: 'button', class: 'primary', onclick: () => void startCognitoSignIn(config) }, 'Sign in'),
        ]
      : [
          h('p', {}, 'On this machine, sign in with the one-time link that ', h('code', {}, 'npm start'), ' printed in its terminal.'),
          h('p', { class: 'muted' }, 'Each link works once. Restart the gateway to get a new one.'),
        ];
  replaceChildren(main, h('section', { class: 'sign-in card' }, h('h1', {}, 'Model gateway console'), message ? h('p', { class: 'notice', role: 'alert' }, message) : null, how));
}
