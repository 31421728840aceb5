import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InstallButton } from './InstallButton';
import { storeInstallPrompt, type BeforeInstallPromptEvent } from '../state/app';
import { setRenderMode } from '../state/render-mode';

/** The browser's install prompt, as it hands it to the page. */
function offerInstall() {
  const prompt = vi.fn(() => Promise.resolve());
  const event = Object.assign(new Event('beforeinstallprompt'), {
    platforms: ['web'],
    userChoice: Promise.resolve({ outcome: 'dismissed' as const, platform: 'web' }),
    prompt,
  }) as BeforeInstallPromptEvent;
  act(() => storeInstallPrompt(event));
  return prompt;
}

afterEach(() => {
  act(() => {
    storeInstallPrompt(null);
    setRenderMode('live');
  });
});

describe('<InstallButton>', () => {
  it('is not there while the browser offers no installation', () => {
    const { container } = render(<InstallButton />);
    expect(container.childElementCount).toBe(0);
  });

  it('is not in the prerendered page, even with a prompt already given', () => {
    offerInstall();
    act(() => setRenderMode('static'));
    const { container } = render(<InstallButton compact />);
    expect(container.childElementCount).toBe(0);
  });

  it('full size: a filled button that says what it does and shows the browser prompt', async () => {
    const prompt = offerInstall();
    render(<InstallButton />);
    const button = screen.getByRole('button', { name: 'Install app' });
    expect(button.className).toBe('button button--filled install-button');
    expect(button.textContent).toBe('Install app');
    expect(button.hasAttribute('aria-label')).toBe(false);
    await userEvent.setup().click(button);
    expect(prompt).toHaveBeenCalledTimes(1);
  });

  it('compact (the top bar): a small button whose name stays when only its icon shows', async () => {
    const prompt = offerInstall();
    render(<InstallButton compact />);
    const button = screen.getByRole('button', { name: 'Install app' });
    expect(button.className).toBe('button button--tonal button--small install-button');
    expect(button.getAttribute('aria-label')).toBe('Install app');
    expect(button.textContent).toBe('Install app');
    await userEvent.setup().click(button);
    expect(prompt).toHaveBeenCalledTimes(1);
  });

  it('goes once the prompt was used', async () => {
    offerInstall();
    render(<InstallButton compact />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Install app' }));
    expect(screen.queryByRole('button')).toBeNull();
  });
});
