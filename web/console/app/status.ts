import { byId } from './dom.ts';

let clearTimer: ReturnType<typeof setTimeout> | undefined;

/** Says something in the live region (read out by screen readers), for a few seconds. */
export function announce(message: string, kind: 'info' | 'error' = 'info'): void {
  const status = byId('status');
  status.textContent = message;
  status.dataset.kind = kind;
  status.classList.add('visible');
  if (clearTimer) clearTimeout(clearTimer);
  clearTimer = setTimeout(() => status.classList.remove('visible'), kind === 'error' ? 8000 : 4000);
}
