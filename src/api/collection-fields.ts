import { MAX_RECORDS, type CollectionName } from './collection-names';

/**
 * What a record of each collection is made of, as openapi.yaml says it (its `{Name}Input` schema and
 * the path's `x-max-records`): the admin screens build their forms from it. Written out here, for the
 * browser carries no YAML parser; collection-fields.test.ts derives the same from openapi.yaml, so
 * a change of the contract that is not made here fails the tests.
 */
export type FieldKind = 'text' | 'url' | 'number' | 'boolean' | 'choice' | 'datetime';

/** A text in English and in the other languages openapi.yaml gives it (`x-translations`). */
export type Localized = Readonly<{ en: string } & Partial<Record<'es' | 'de' | 'fr' | 'zh-Hans', string>>>;

export interface RecordField {
  /** The property's name; a nested one is a path (`keys.auth`). */
  name: string;
  kind: FieldKind;
  required: boolean;
  /** null is a value of its own (an empty field sends null). */
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  /** The values a choice offers. */
  options?: readonly string[];
  /** Each value of a choice in words (`x-enum-titles`), as the picker offers it. */
  optionTitles?: Readonly<Record<string, Localized>>;
  /** The schema's title: the field's label. */
  title?: Localized;
  /** The schema's description, shown as the field's hint. */
  description?: Localized;
  /** The pattern in words (`x-pattern-message`): the hint and the error of a value that breaks it. */
  patternMessage?: Localized;
}

export interface CollectionSchema {
  fields: readonly RecordField[];
  /** The most records the collection holds; a create beyond answers 422. */
  maxRecords?: number;
}

export const COLLECTION_SCHEMAS: Readonly<Record<CollectionName, CollectionSchema>> = {
  accounts: {
    maxRecords: MAX_RECORDS.accounts,
    fields: [
      {
        name: 'name',
        kind: 'text',
        required: true,
        minLength: 1,
        maxLength: 80,
        title: { en: 'Name', es: 'Nombre', de: 'Name', fr: 'Nom', 'zh-Hans': '名称' },
      },
      {
        name: 'currency',
        kind: 'text',
        required: true,
        pattern: '^[A-Z]{3}$',
        maxLength: 3,
        title: { en: 'Currency', es: 'Moneda', de: 'Währung', fr: 'Devise', 'zh-Hans': '货币' },
        description: {
          en: 'ISO 4217 code.',
          es: 'Código ISO 4217.',
          de: 'ISO-4217-Code.',
          fr: 'Code ISO 4217.',
          'zh-Hans': 'ISO 4217 代码。',
        },
        patternMessage: {
          en: 'Three capital letters, such as EUR.',
          es: 'Tres letras mayúsculas, como EUR.',
          de: 'Drei Großbuchstaben, etwa EUR.',
          fr: 'Trois lettres majuscules, comme EUR.',
          'zh-Hans': '三个大写字母，例如 EUR。',
        },
      },
      {
        name: 'balance',
        kind: 'number',
        required: true,
        minimum: -1000000000,
        maximum: 1000000000,
        title: { en: 'Balance', es: 'Saldo', de: 'Kontostand', fr: 'Solde', 'zh-Hans': '余额' },
      },
    ],
  },
  notifications: {
    maxRecords: MAX_RECORDS.notifications,
    fields: [
      {
        name: 'title',
        kind: 'text',
        required: true,
        minLength: 1,
        maxLength: 120,
        title: { en: 'Title', es: 'Título', de: 'Titel', fr: 'Titre', 'zh-Hans': '标题' },
      },
      {
        name: 'body',
        kind: 'text',
        required: true,
        maxLength: 1000,
        title: { en: 'Text', es: 'Texto', de: 'Text', fr: 'Texte', 'zh-Hans': '正文' },
      },
      {
        name: 'level',
        kind: 'choice',
        required: true,
        options: ['info', 'success', 'warning', 'error'],
        title: { en: 'Level', es: 'Nivel', de: 'Stufe', fr: 'Niveau', 'zh-Hans': '级别' },
        optionTitles: {
          info: { en: 'Information', es: 'Información', de: 'Information', fr: 'Information', 'zh-Hans': '提示' },
          success: { en: 'Good news', es: 'Buenas noticias', de: 'Gute Nachricht', fr: 'Bonne nouvelle', 'zh-Hans': '好消息' },
          warning: { en: 'Warning', es: 'Aviso', de: 'Warnung', fr: 'Avertissement', 'zh-Hans': '警告' },
          error: { en: 'Problem', es: 'Problema', de: 'Problem', fr: 'Problème', 'zh-Hans': '问题' },
        },
      },
      { name: 'read', kind: 'boolean', required: true, title: { en: 'Read', es: 'Leída', de: 'Gelesen', fr: 'Lue', 'zh-Hans': '已读' } },
      {
        name: 'createdAt',
        kind: 'datetime',
        required: true,
        maxLength: 64,
        title: { en: 'Created', es: 'Creada', de: 'Erstellt', fr: 'Créée', 'zh-Hans': '创建时间' },
      },
    ],
  },
  subscription: {
    maxRecords: MAX_RECORDS.subscription,
    fields: [
      {
        name: 'endpoint',
        kind: 'url',
        required: true,
        maxLength: 2048,
        title: { en: 'Push endpoint', es: 'Punto de envío', de: 'Push-Endpunkt', fr: 'Point d’envoi', 'zh-Hans': '推送端点' },
        description: {
          en: 'The address the push service gave the device.',
          es: 'La dirección que el servicio de notificaciones dio al dispositivo.',
          de: 'Die Adresse, die der Push-Dienst dem Gerät gab.',
          fr: 'L’adresse que le service de notifications a donnée à l’appareil.',
          'zh-Hans': '推送服务分配给设备的地址。',
        },
      },
      {
        name: 'expirationTime',
        kind: 'number',
        required: false,
        nullable: true,
        title: { en: 'Expires', es: 'Caduca', de: 'Läuft ab', fr: 'Expire', 'zh-Hans': '过期时间' },
        description: {
          en: 'Milliseconds since 1970; empty when it never expires.',
          es: 'Milisegundos desde 1970; vacío si nunca caduca.',
          de: 'Millisekunden seit 1970; leer, wenn es nie abläuft.',
          fr: 'Millisecondes depuis 1970 ; vide s’il n’expire jamais.',
          'zh-Hans': '自 1970 年起的毫秒数；永不过期则留空。',
        },
      },
      {
        name: 'keys.p256dh',
        kind: 'text',
        required: true,
        pattern: '^[A-Za-z0-9_=-]{1,200}$',
        maxLength: 200,
        title: {
          en: 'Public key (p256dh)',
          es: 'Clave pública (p256dh)',
          de: 'Öffentlicher Schlüssel (p256dh)',
          fr: 'Clé publique (p256dh)',
          'zh-Hans': '公钥 (p256dh)',
        },
        patternMessage: {
          en: 'Letters, digits, -, _ and =, up to 200.',
          es: 'Letras, cifras, -, _ y =, hasta 200.',
          de: 'Buchstaben, Ziffern, -, _ und =, bis zu 200.',
          fr: 'Lettres, chiffres, -, _ et =, jusqu’à 200.',
          'zh-Hans': '字母、数字、-、_ 和 =，最多 200 个。',
        },
      },
      {
        name: 'keys.auth',
        kind: 'text',
        required: true,
        pattern: '^[A-Za-z0-9_=-]{1,100}$',
        maxLength: 100,
        title: {
          en: 'Auth secret',
          es: 'Secreto de autenticación',
          de: 'Auth-Geheimnis',
          fr: 'Secret d’authentification',
          'zh-Hans': '认证密钥',
        },
        patternMessage: {
          en: 'Letters, digits, -, _ and =, up to 100.',
          es: 'Letras, cifras, -, _ y =, hasta 100.',
          de: 'Buchstaben, Ziffern, -, _ und =, bis zu 100.',
          fr: 'Lettres, chiffres, -, _ et =, jusqu’à 100.',
          'zh-Hans': '字母、数字、-、_ 和 =，最多 100 个。',
        },
      },
    ],
  },
  symbols: {
    maxRecords: MAX_RECORDS.symbols,
    fields: [
      {
        name: 'code',
        kind: 'text',
        required: true,
        pattern: '^[A-Z]{1,5}$',
        maxLength: 5,
        title: { en: 'Code', es: 'Código', de: 'Kürzel', fr: 'Code', 'zh-Hans': '代码' },
        description: {
          en: 'The ticker code.',
          es: 'El código bursátil.',
          de: 'Das Börsenkürzel.',
          fr: 'Le code boursier.',
          'zh-Hans': '股票代码。',
        },
        patternMessage: {
          en: 'One to five capital letters, such as AAPL.',
          es: 'De una a cinco letras mayúsculas, como AAPL.',
          de: 'Ein bis fünf Großbuchstaben, etwa AAPL.',
          fr: 'Une à cinq lettres majuscules, comme AAPL.',
          'zh-Hans': '一到五个大写字母，例如 AAPL。',
        },
      },
      {
        name: 'entity',
        kind: 'text',
        required: true,
        minLength: 1,
        maxLength: 120,
        title: { en: 'Company', es: 'Entidad', de: 'Unternehmen', fr: 'Entité', 'zh-Hans': '实体' },
        description: {
          en: 'The entity the code stands for.',
          es: 'La entidad a la que corresponde el código.',
          de: 'Wofür das Kürzel steht.',
          fr: 'L’entité que désigne le code.',
          'zh-Hans': '代码所代表的实体。',
        },
      },
    ],
  },
};
