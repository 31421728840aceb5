import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import NotFoundScreen from './NotFoundScreen';

describe('<NotFoundScreen>', () => {
  it('says the page is not found, its title focusable by script only, with a way home', () => {
    render(<NotFoundScreen />);
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' }).tabIndex).toBe(-1);
    expect(screen.getByText('The page you are looking for does not exist or has moved.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/home');
  });
});
