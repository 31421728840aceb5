/**
 * A profile's fields as the multipart/form-data body the API takes (lists comma-separated),
 * with the avatar file when one is chosen. Shared by the client and the service worker's
 * outbox, so it depends on nothing.
 */
export function profileFormData(fields: Readonly<Record<string, unknown>>, avatar?: Blob | null): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    form.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  if (avatar) form.append('avatar', avatar, avatar instanceof File ? avatar.name : 'avatar');
  return form;
}
