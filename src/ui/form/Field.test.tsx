import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Field } from './Field';
import { createFormState, type FormState } from './form-state';
import { Validators } from './validators';

type Name = 'username' | 'bio' | 'language';
let form: FormState<Name>;

function setup(hint?: string) {
  form = createFormState<Name>([
    { name: 'username', rules: [Validators.required(), Validators.minLength(3)] },
    { name: 'bio', rules: [Validators.maxLength(5)] },
    { name: 'language', initial: 'en' },
  ]);
  render(
    <form>
      <Field form={form} name="username" label="Username" hint={hint} required />
      <Field form={form} name="bio" label="About you" multiline />
      <Field
        form={form}
        name="language"
        label="Language"
        options={[
          ['en', 'English'],
          ['de', 'Deutsch'],
        ]}
      />
    </form>,
  );
  return { user: userEvent.setup(), input: screen.getByLabelText(/^Username/) as HTMLInputElement };
}

/** The elements an element's aria-describedby points to. */
function describedBy(el: HTMLElement): HTMLElement[] {
  return (el.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)!)
    .filter(Boolean);
}

afterEach(() => form.dispose());

describe('<Field>', () => {
  it('links its label to its control', () => {
    const { input } = setup();
    expect(input.tagName).toBe('INPUT');
    expect(input.name).toBe('username');
    const label = document.querySelector(`label[for="${input.id}"]`);
    expect(label?.textContent).toBe('Username (required)');
    expect(input.getAttribute('aria-required')).toBe('true');
    expect((screen.getByLabelText('About you') as HTMLElement).tagName).toBe('TEXTAREA');
    expect((screen.getByLabelText('Language') as HTMLSelectElement).value).toBe('en');
  });

  it('shows no error and no aria-invalid before the field is left, even while invalid', async () => {
    const { user, input } = setup();
    await user.click(input);
    await user.keyboard('ab');
    expect(form.values.value.username).toBe('ab');
    expect(form.errors.value.username).toBeDefined();
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByText('Use at least 3 characters.')).toBeNull();
  });

  it('after blur, marks the control invalid and links the error through aria-describedby', async () => {
    const { user, input } = setup('Lower-case letters');
    await user.click(input);
    await user.keyboard('ab');
    await user.tab();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = describedBy(input).map((el) => el.textContent);
    expect(described).toEqual(['Lower-case letters', 'Use at least 3 characters.']);

    // Fixing the value removes the error and its link, the hint stays.
    await user.click(input);
    await user.keyboard('c');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(describedBy(input).map((el) => el.textContent)).toEqual(['Lower-case letters']);
  });

  it('a field left valid shows no error', async () => {
    const { user } = setup();
    const bio = screen.getByLabelText('About you');
    await user.click(bio);
    await user.tab();
    expect(bio.hasAttribute('aria-invalid')).toBe(false);
  });

  it('shows every error after submit, untouched fields included', () => {
    const { input } = setup();
    act(() => void form.submit());
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(input).map((el) => el.textContent)).toEqual(['This field is required.']);
    expect(screen.getByLabelText('About you').hasAttribute('aria-invalid')).toBe(false);
  });

  it('writes what is typed or chosen into the form state', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('About you'), 'Hi');
    await user.selectOptions(screen.getByLabelText('Language'), 'de');
    expect(form.values.value).toMatchObject({ bio: 'Hi', language: 'de' });
    act(() => form.setValue('bio', 'From state'));
    expect((screen.getByLabelText('About you') as HTMLTextAreaElement).value).toBe('From state');
  });
});
