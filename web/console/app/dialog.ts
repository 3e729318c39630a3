import { h } from './dom.ts';

/**
 * Asks to confirm a destructive action in a modal <dialog>: focus moves into it, Escape cancels, and focus
 * returns to where it was. Resolves true only for the confirm button.
 */
export function confirmAction(options: { title: string; message: string; confirmLabel: string }): Promise<boolean> {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { class: 'confirm', 'aria-labelledby': 'confirm-title' },
      h('h2', { id: 'confirm-title' }, options.title),
      h('p', {}, options.message),
      h(
        'form',
        { method: 'dialog', class: 'actions' },
        h('button', { value: 'cancel', class: 'quiet', autofocus: true }, 'Cancel'),
        h('button', { value: 'confirm', class: 'danger' }, options.confirmLabel),
      ),
    );
    dialog.addEventListener('close', () => {
      dialog.remove();
      previous?.focus();
      resolve(dialog.returnValue === 'confirm');
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
