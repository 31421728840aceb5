/**
 * The form builder's messages in English (one per validation rule): they load with the first form.
 * Every other language keeps these keys in its one catalogue (loaded when chosen).
 */
export const enForms = {
  // Follows a field's label, with the language's own separator: a space, or none before a full-width bracket.
  'common.required': ' (required)',
  'validation.required': 'This field is required.',
  'validation.minLength': 'Use at least {min} characters.',
  'validation.maxLength': 'Use at most {max} characters.',
  'validation.min': 'Must be at least {min}.',
  'validation.max': 'Must be at most {max}.',
  'validation.pattern': 'This value is not in the expected format.',
  'validation.number': 'Enter a number.',
  'validation.choice': 'Choose one of the values offered.',
  'validation.username': 'Use 3 to 20 lower-case letters, digits or _.',
  'validation.email': 'Enter an email address like name@example.org.',
  'validation.interests': 'Give at most 10 interests of at most 24 characters each.',
  'validation.avatarType': 'Choose a PNG, JPEG or WebP image.',
  'validation.avatarSize': 'Choose an image of at most 2 MB.',
  'validation.avatarContent': 'This file is not an image: its content is not the PNG, JPEG or WebP its name says. Choose another image.',
  'validation.summary': 'Please correct {count, plural, one {# field} other {# fields}} before saving.',
} as const;
