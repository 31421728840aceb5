import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Field, focusFirstError } from './Field';
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

  it('marks as required only a required field', () => {
    const { input } = setup();
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(screen.getByLabelText('About you').hasAttribute('aria-required')).toBe(false);
    expect(screen.getByLabelText('Language').hasAttribute('aria-required')).toBe(false);
  });

  it('shows its invalid state on the whole field only while the error is shown', async () => {
    const { user, input } = setup();
    const field = input.closest('div')!;
    expect(field.className).toBe('field');
    await user.click(input);
    await user.tab();
    expect(field.className).toBe('field field--invalid');
    await user.click(input);
    await user.keyboard('abc');
    expect(field.className).toBe('field');
  });

  it('shows an error when the field is left for nothing', () => {
    const { input } = setup();
    act(() => input.focus());
    act(() => input.blur());
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });
});

/** A field in a form with a submit button and a plain button, beside another form's submit button. */
function setupWithButtons() {
  form = createFormState<Name>([{ name: 'username', rules: [Validators.required()] }]);
  render(
    <>
      <form aria-label="Profile" onSubmit={(e) => e.preventDefault()}>
        <Field form={form} name="username" label="Username" required />
        <button type="button">Preview</button>
        <button type="submit">Save</button>
      </form>
      <form aria-label="Search" onSubmit={(e) => e.preventDefault()}>
        <button type="submit">Search</button>
      </form>
    </>,
  );
  return { user: userEvent.setup(), input: screen.getByLabelText(/^Username/) as HTMLInputElement };
}

describe('<Field> left for a button', () => {
  it("shows no error when left for its own form's submit button, whose click must not be moved away", async () => {
    const { user, input } = setupWithButtons();
    await user.click(input);
    await user.pointer({ keys: '[MouseLeft>]', target: screen.getByRole('button', { name: 'Save' }) });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(form.touched.value.username).toBeFalsy();
  });

  it('shows the error when left for a button that does not submit the form', async () => {
    const { user, input } = setupWithButtons();
    await user.click(input);
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it("shows the error when left for another form's submit button", async () => {
    const { user, input } = setupWithButtons();
    await user.click(input);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('focusFirstError', () => {
  it('moves focus to the first field showing an error', () => {
    setup();
    act(() => form.setValue('bio', 'far too long'));
    act(() => void form.submit());
    const element = screen.getByLabelText(/^Username/).closest('form')!;
    act(() => focusFirstError(element));
    expect(document.activeElement).toBe(screen.getByLabelText(/^Username/));
  });

  it('leaves focus where it is when no field shows an error, or there is no form', () => {
    const { input } = setup();
    const bio = screen.getByLabelText('About you');
    act(() => bio.focus());
    expect(() => focusFirstError(input.closest('form'))).not.toThrow();
    expect(() => focusFirstError(null)).not.toThrow();
    expect(document.activeElement).toBe(bio);
  });
});
