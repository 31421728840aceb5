import { withWords } from '../../i18n';
import { enAdmin } from '../../i18n/en-admin';
import { ApiError } from '../../api/errors';
import { errorText } from '../../ui/widgets/states';

const t = withWords(enAdmin);

/** What the backend said, status and message, as the admin will read it. */
export function backendMessage(error: unknown): string {
  return error instanceof ApiError ? t('admin.error', { message: `${error.status} ${error.body.message}` }) : errorText(error);
}
