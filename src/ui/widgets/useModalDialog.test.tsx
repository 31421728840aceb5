import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { useModalDialog } from './useModalDialog';

function Sheet({ open, shown = true }: { open: boolean; shown?: boolean }) {
  const ref = useModalDialog(open);
  return shown ? (
    <dialog ref={ref} aria-label="Sheet">
      <button type="button">Inside</button>
    </dialog>
  ) : (
    <p>No sheet</p>
  );
}

const dialog = () => screen.getByRole('dialog', { hidden: true }) as HTMLDialogElement;

describe('useModalDialog', () => {
  it('keeps the dialog closed while not asked to open', () => {
    render(<Sheet open={false} />);
    expect(dialog().open).toBe(false);
  });

  it('opens the dialog when asked, and keeps it open on a render that still asks', () => {
    const { rerender } = render(<Sheet open={false} />);
    rerender(<Sheet open />);
    expect(dialog().open).toBe(true);
    rerender(<Sheet open />);
    expect(dialog().open).toBe(true);
  });

  it('opened from the start, stays open until asked to close, then closes', () => {
    const { rerender } = render(<Sheet open />);
    expect(dialog().open).toBe(true);
    rerender(<Sheet open={false} />);
    expect(dialog().open).toBe(false);
    rerender(<Sheet open={false} />);
    expect(dialog().open).toBe(false);
  });

  it('follows a dialog the member closed themselves: asked to open again, it opens', () => {
    const { rerender } = render(<Sheet open />);
    dialog().close();
    rerender(<Sheet open={false} />);
    rerender(<Sheet open />);
    expect(dialog().open).toBe(true);
  });

  it('does nothing while there is no dialog on the page', () => {
    const { rerender } = render(<Sheet open shown={false} />);
    rerender(<Sheet open={false} shown={false} />);
    expect(screen.getByText('No sheet')).toBeTruthy();
    expect(screen.queryByRole('dialog', { hidden: true })).toBeNull();
  });
});
