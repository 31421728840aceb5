import { Link } from 'wouter';
import { withWords } from '../../i18n';
import { enNotFound } from '../../i18n/en-not-found';

const t = withWords(enNotFound);

export default function NotFoundScreen() {
  return (
    <div className="screen not-found">
      <h1 tabIndex={-1}>{t('nav.notFound')}</h1>
      <p>{t('notFound.body')}</p>
      <Link href="/home" className="button button--filled">
        {t('notFound.home')}
      </Link>
    </div>
  );
}
