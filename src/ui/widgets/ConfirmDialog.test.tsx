import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog } from './ConfirmDialog';

function setup(open = true) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  const view = render(
    <ConfirmDialog
      open={open}
      title="Delete your profile?"
      body="This cannot be undone."
      confirmLabel="Delete"
      onConfirm={onConfirm}
      onCancel={onCancel}
    />,
  );
  return { ...view, onConfirm, onCancel, user: userEvent.setup() };
}

describe('<ConfirmDialog>', () => {
  it('is a modal dialog named by its title and described by its body', () => {
    setup();
    const dialog = screen.getByRole('dialog', { name: 'Delete your profile?', description: 'This cannot be undone.' }) as HTMLDialogElement;
    expect(dialog.open).toBe(true);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Delete your profile?');
  });

  it('stays closed until asked, without counting as cancelled', () => {
    const { onCancel, rerender } = setup(false);
    expect((screen.getByRole('dialog', { hidden: true }) as HTMLDialogElement).open).toBe(false);
    rerender(
      <ConfirmDialog
        open={false}
        title="Delete your profile?"
        body="This cannot be undone."
        confirmLabel="Delete"
        onConfirm={() => {}}
        onCancel={onCancel}
      />,
    );
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('confirms with its confirm button, and cancels with Cancel', async () => {
    const { user, onConfirm, onCancel } = setup();
    // The safe choice holds the focus when the dialog opens.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onCancel).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it('closed by the platform (Escape), counts as cancelled', () => {
    const { onCancel, onConfirm } = setup();
    (screen.getByRole('dialog') as HTMLDialogElement).close();
    expect(onCancel).toHaveBeenCalledOnce();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
