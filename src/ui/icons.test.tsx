import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { Icon } from './icons';

describe('<Icon>', () => {
  it('draws the named icon at 24px, hidden from assistive technology and out of the tab order', () => {
    const { container } = render(<Icon name="close" />);
    const svg = container.querySelector('svg')!;
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.getAttribute('focusable')).toBe('false');
    expect(svg.getAttribute('width')).toBe('24');
    expect(svg.getAttribute('height')).toBe('24');
    expect(svg.querySelector('path')?.getAttribute('d')).toBe('M6 6l12 12M18 6L6 18');
  });

  it('takes another size when given', () => {
    const { container } = render(<Icon name="menu" size={32} />);
    expect(container.querySelector('svg')?.getAttribute('width')).toBe('32');
    expect(container.querySelector('path')?.getAttribute('d')).toBe('M3 6h18M3 12h18M3 18h18');
  });
});
