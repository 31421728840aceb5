/**
 * What the backend keeps of the notifications beside their records (openapi.yaml, "Notifications
 * are an inbox"): each one's text in other languages than its record's English, the ones a member
 * stops seeing once they have a profile (the welcome that asks for one), and each member's read
 * marks. None of it is a field of the contract's Notification, so it is kept here, as profiles'
 * owners are kept beside the profiles.
 */
import seed from './data/inbox.json' with { type: 'json' };
import { RECORD_LANGUAGE } from './languages.ts';

/** A notification's title and body in one language. */
export interface NotificationText {
  title: string;
  body: string;
}

/** The inbox as plain data: the seed, a data file, what --persist keeps. */
export interface InboxData {
  /** By notification id, then language tag: the notification's text in that language. */
  translations: Record<string, Record<string, NotificationText>>;
  /** The notifications a member no longer sees once they have a profile. */
  untilProfile: string[];
  /** By member (the token's subject), then notification id: read (true) or unread (false). */
  readMarks: Record<string, Record<string, boolean>>;
}

/** The seed's: its three notifications in Spanish, German, French and Chinese, and the welcome. */
export const INBOX_SEED: InboxData = seed;

export const EMPTY_INBOX: InboxData = { translations: {}, untilProfile: [], readMarks: {} };

const nested = <T>(record: Record<string, Record<string, T>>) =>
  new Map(Object.entries(record).map(([key, inner]) => [key, new Map(Object.entries(inner))]));
const plain = <T>(map: Map<string, Map<string, T>>) =>
  Object.fromEntries([...map].filter(([, inner]) => inner.size > 0).map(([key, inner]) => [key, Object.fromEntries(inner)]));

export class Inbox {
  private translations = new Map<string, Map<string, NotificationText>>();
  private untilProfile = new Set<string>();
  private marks = new Map<string, Map<string, boolean>>();
  /** Told of every change, so that the database's revision grows (and --persist writes). */
  private readonly changed: () => void;

  constructor(changed: () => void) {
    this.changed = changed;
  }

  load(data: InboxData): void {
    this.translations = nested(structuredClone(data.translations));
    this.untilProfile = new Set(data.untilProfile);
    this.marks = nested(data.readMarks);
  }

  snapshot(): InboxData {
    return {
      translations: structuredClone(plain(this.translations)),
      untilProfile: [...this.untilProfile],
      readMarks: plain(this.marks),
    };
  }

  /** The languages the notification's text is in: English (its record) first. */
  languagesOf(id: string): string[] {
    return [RECORD_LANGUAGE, ...(this.translations.get(id)?.keys() ?? [])];
  }

  /** The notification's text in a language other than English, when the backend has it. */
  textIn(id: string, language: string): NotificationText | undefined {
    return this.translations.get(id)?.get(language);
  }

  /** Whether a member who has a profile no longer sees the notification. */
  isUntilProfile(id: string): boolean {
    return this.untilProfile.has(id);
  }

  /** The member's mark of the notification: read, unread, or none (undefined). */
  markOf(subject: string, id: string): boolean | undefined {
    return this.marks.get(subject)?.get(id);
  }

  mark(subject: string, id: string, read: boolean): void {
    let own = this.marks.get(subject);
    if (!own) {
      own = new Map();
      this.marks.set(subject, own);
    }
    if (own.get(id) === read) return;
    own.set(id, read);
    this.changed();
  }

  /** Stores the notification's text in a language other than English; a tag equal but for case is replaced. */
  setText(id: string, language: string, text: NotificationText): void {
    let texts = this.translations.get(id);
    if (!texts) {
      texts = new Map();
      this.translations.set(id, texts);
    }
    for (const tag of texts.keys()) if (tag.toLowerCase() === language.toLowerCase()) texts.delete(tag);
    texts.set(language, { title: text.title, body: text.body });
    this.changed();
  }

  /** The record's English text changed: the translations were of the text it had. */
  dropTranslations(id: string): void {
    if (this.translations.delete(id)) this.changed();
  }

  /** The notification is deleted: nothing of it is kept, so a new one under its id starts afresh. */
  forget(id: string): void {
    let dropped = this.translations.delete(id);
    dropped = this.untilProfile.delete(id) || dropped;
    for (const own of this.marks.values()) dropped = own.delete(id) || dropped;
    if (dropped) this.changed();
  }
}
